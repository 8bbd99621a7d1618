import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An Xvfb X server of the test's own (640x480, 24-bit), so window tests need no real display
/// and never touch the tester's; stopped with the value.
public final class VirtualDisplay: Sendable {
    /// The display name, for example `":93"`.
    public let name: String
    private let process: Process

    /// Starts Xvfb on a display number it picks itself, and returns once it accepts clients.
    public init(width: Int = 640, height: Int = 480) async throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        // -displayfd: Xvfb chooses a free display and writes its number to standard output once
        // it is ready for clients, which is what this waits for (no lock-file guessing, no polling).
        process.arguments = [
            "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset",
        ]
        let ready = Pipe()
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            let reader = ready.fileHandleForReading
            let number = try await withDeadline(.seconds(10), "Xvfb to start") {
                try await OwnThread.run { () throws -> Int in
                    var line = Data()
                    while !line.contains(UInt8(ascii: "\n")) {
                        guard let chunk = try reader.read(upToCount: 16), !chunk.isEmpty else {
                            throw TestMediaError(message: "Xvfb exited before it was ready")
                        }
                        line.append(chunk)
                    }
                    guard
                        let number = Int(
                            String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
                    else { throw TestMediaError(message: "Xvfb announced no display number") }
                    return number
                }
            }
            name = ":\(number)"
            // The first client makes the server compile its keymap, which takes a while: let a
            // throwaway client (on a thread of its own) pay that, not a player under test.
            let probe = try await ProcessRunner.run("xdpyinfo", ["-display", name])
            guard probe.status == 0 else {
                throw TestMediaError(message: "Xvfb does not answer: \(probe.standardError)")
            }
        } catch {
            process.killAndReap()
            throw error
        }
    }

    deinit {
        process.killAndReap()
    }

    /// The whole screen, as the X server has it now (`xwd -root`).
    public func screenshot() async throws -> Screenshot {
        let result = try await ProcessRunner.runForData("xwd", ["-root", "-silent", "-display", name])
        guard result.status == 0 else { throw TestMediaError(message: "xwd failed: \(result.standardError)") }
        // A copy of the dump and its header read: pixels are decoded only when asked for.
        return try Screenshot(xwd: result.standardOutput)
    }

    /// Clicks the left mouse button at a point of the screen (`xdotool`), as a person would.
    public func click(atX x: Int, y: Int) async throws {
        let result = try await ProcessRunner.run(
            "xdotool", ["mousemove", "\(x)", "\(y)", "click", "1"], environment: ["DISPLAY": name])
        guard result.status == 0 else { throw TestMediaError(message: "xdotool failed: \(result.standardError)") }
    }

    /// Starts an X client on this display (an `xlogo` to embed video in, say); it is killed
    /// with the returned handle.
    public func launch(_ program: String, _ arguments: [String]) throws -> Process {
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = [program, "-display", name] + arguments
        client.standardOutput = FileHandle.nullDevice
        client.standardError = FileHandle.nullDevice
        try client.run()
        return client
    }

    /// The id of the window a client named `title` draws in: its top-level window's first child
    /// (toolkit clients such as xlogo draw in a widget window inside the top-level one), once it
    /// exists (`xdotool search --sync` waits for the window to be mapped).
    public func drawingArea(ofWindowNamed title: String) async throws -> UInt {
        try await withDeadline(.seconds(10), "a window named \(title)") { [name] in
            let search = try await ProcessRunner.run(
                "xdotool", ["search", "--sync", "--onlyvisible", "--name", "^\(title)$"], environment: ["DISPLAY": name]
            )
            guard search.status == 0, let top = search.standardOutput.split(separator: "\n").first else {
                throw TestMediaError(message: "no window named \(title): \(search.standardError)")
            }
            let tree = try await ProcessRunner.run("xwininfo", ["-children", "-id", String(top), "-display", name])
            let lines = tree.standardOutput.split(separator: "\n")
            guard let children = lines.firstIndex(where: { $0.contains("child") }), children + 1 < lines.count,
                let id = lines[children + 1].split(separator: " ").first(where: { $0.hasPrefix("0x") }),
                let value = UInt(id.dropFirst(2), radix: 16)
            else { throw TestMediaError(message: "\(title) has no child window: \(tree.standardOutput)") }
            return value
        }
    }
}

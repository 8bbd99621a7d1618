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

    /// Starts Xvfb on a free display number.
    public init(width: Int = 640, height: Int = 480) async throws {
        var number = 90 + Int(getpid() % 100)
        while FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") { number += 1 }
        name = ":\(number)"
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        process.arguments = [name, "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let socket = "/tmp/.X11-unix/X\(number)"
        try await withDeadline(.seconds(10), "Xvfb on \(name)") { [process, name] in
            while !FileManager.default.fileExists(atPath: socket) {
                guard process.isRunning else { throw TestMediaError(message: "Xvfb exited") }
                await pause(milliseconds: 20)
            }
            // The first client makes the server compile its keymap, which takes a while: let a
            // throwaway client (on a thread of its own) pay that, not a player under test.
            let probe = try await ProcessRunner.run("xdpyinfo", ["-display", name])
            guard probe.status == 0 else {
                throw TestMediaError(message: "Xvfb does not answer: \(probe.standardError)")
            }
        }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The whole screen, as the X server has it now (`xwd -root`).
    public func screenshot() async throws -> Screenshot {
        let result = try await ProcessRunner.runForData("xwd", ["-root", "-silent", "-display", name])
        guard result.status == 0 else { throw TestMediaError(message: "xwd failed: \(result.standardError)") }
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
    /// (toolkit clients such as xlogo draw in a widget window inside the top-level one), once it exists.
    public func drawingArea(ofWindowNamed title: String) async throws -> UInt {
        try await withDeadline(.seconds(10), "a window named \(title)") { [name] in
            while true {
                let tree = try await ProcessRunner.run("xwininfo", ["-root", "-tree", "-display", name]).standardOutput
                let lines = tree.split(separator: "\n")
                if let top = lines.firstIndex(where: { $0.contains("\"\(title)\"") }), top + 2 < lines.count,
                    lines[top + 1].contains("child"),
                    let id = lines[top + 2].split(separator: " ").first(where: { $0.hasPrefix("0x") }),
                    let value = UInt(id.dropFirst(2), radix: 16)
                {
                    return value
                }
                await pause(milliseconds: 50)
            }
        }
    }
}

/// Yields for a while without holding a thread: a dispatch timer resumes the task.
func pause(milliseconds: Int) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { continuation.resume() }
    }
}

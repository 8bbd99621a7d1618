import Foundation
import MediaEngine
import MediaTestSupport
import TerminalVideoSink
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the sink writes for real frames of a movie (SMPTE bars, 320x240), into a pipe, read
/// back through ``ScreenModel``: the picture a person would see, and the sequences around it.
@Suite("Terminal video sink: drawing")
struct RenderingTests {
    /// The seven bars across the top of the SMPTE pattern, left to right.
    static let bars: [(name: String, color: RGBAColor)] = [
        ("white", .white), ("yellow", RGBAColor(red: 255, green: 255, blue: 0)),
        ("cyan", RGBAColor(red: 0, green: 255, blue: 255)), ("green", .green),
        ("magenta", RGBAColor(red: 255, green: 0, blue: 255)), ("red", .red), ("blue", .blue),
    ]

    /// The end of each frame the sink writes (the end of its synchronized update).
    static let frameEnd = Array("\u{1B}[?2026l".utf8)

    /// A pipe whose read end is read on a thread of its own into memory, once asked to.
    final class PipeCapture: Sendable {
        /// What the reading thread and the test both touch.
        private final class Shared: Sendable {
            let state = Locked((bytes: [UInt8](), ended: false, writeEndOpen: true))
            let changes = Waitlist()
        }

        let writeDescriptor: Int32
        private let readDescriptor: Int32
        private let shared = Shared()

        /// A pipe holding at most `capacity` bytes not read yet (the kernel's default if nil).
        init(capacity: Int? = nil) throws {
            var descriptors: [Int32] = [-1, -1]
            guard pipe(&descriptors) == 0 else { throw TestFailure("pipe() failed: errno \(errno)") }
            readDescriptor = descriptors[0]
            writeDescriptor = descriptors[1]
            // F_SETPIPE_SZ (1031, a GNU extension Glibc's module does not export).
            if let capacity, fcntl(writeDescriptor, 1031, Int32(capacity)) < 0 {
                throw TestFailure("F_SETPIPE_SZ \(capacity) failed: errno \(errno)")
            }
        }

        deinit {
            closeWriteEnd()
            close(readDescriptor)
        }

        /// Starts reading, until the write end is closed.
        func startReading() {
            let descriptor = readDescriptor
            Thread { [shared] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    shared.state.withLock { $0.bytes += buffer[0..<count] }
                    shared.changes.recheck()
                }
                shared.state.withLock { $0.ended = true }
                shared.changes.recheck()
            }.start()
        }

        /// Everything read so far.
        var bytes: [UInt8] { shared.state.withLock { $0.bytes } }

        /// Waits until what was read satisfies `condition`.
        func waitFor(_ what: String, _ condition: @escaping @Sendable ([UInt8]) -> Bool) async throws {
            try await withDeadline(.seconds(15), what) { [shared] in
                await shared.changes.wait { shared.state.withLock { condition($0.bytes) } }
            }
        }

        /// Closes the write end, then waits until everything written is read.
        func finish() async throws {
            closeWriteEnd()
            try await withDeadline(.seconds(15), "the end of the pipe") { [shared] in
                await shared.changes.wait { shared.state.withLock { $0.ended } }
            }
        }

        private func closeWriteEnd() {
            let open = shared.state.withLock { state in
                defer { state.writeEndOpen = false }
                return state.writeEndOpen
            }
            if open { close(writeDescriptor) }
        }
    }

    private func player(drawingOn sink: TerminalVideoSink, clip: TestMedia.Clip) async throws -> MoviePlayer {
        let url = try await TestMedia.url(for: clip)
        return MoviePlayer(source: URISource(uri: url.absoluteString), videoSink: sink)
    }

    @Test("a frame of SMPTE bars: a grid of the size asked for, each bar's cells in its colour, in 24-bit SGR")
    func drawsBars() async throws {
        let capture = try PipeCapture()
        capture.startReading()
        // 32x12 cells are 32x24 pixels: 4:3, the movie's shape, so the picture fills the grid.
        let sink = TerminalVideoSink(
            fileDescriptor: capture.writeDescriptor, columns: 32, rows: 12, exitsOnInterrupt: false)
        let player = try await player(drawingOn: sink, clip: TestMedia.bars)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        try await capture.waitFor("the first frame") { $0.contains(Self.frameEnd) }

        let screen = try await ScreenModel.reading(columns: 80, rows: 24, bytes: capture.bytes)
        let area = try #require(screen.paintedArea)
        #expect(area.rows == 1...12 && area.columns == 1...32, "\(area)")
        #expect(screen.cursorVisible == false)
        #expect(screen.events.first == .screenErased)
        #expect(screen.events.contains(.cursorHidden))
        #expect(!screen.events.contains { if case .redundantColor = $0 { true } else { false } })
        // The bars fill the top two thirds: rows 1-8 of 12. Look at the middle of each, rows 2-6.
        for (index, bar) in Self.bars.enumerated() {
            let column = Int((Double(index) + 0.5) * 32 / 7) + 1
            for row in 2...6 {
                let cell = screen[row, column]
                for (half, color) in [("upper", cell.upper), ("lower", cell.lower)] {
                    let seen = try #require(color, "\(bar.name) bar, row \(row), column \(column): no colour")
                    #expect(
                        seen.isClose(to: bar.color, tolerance: 40),
                        "\(bar.name) bar, row \(row), column \(column), \(half) half: \(seen)")
                }
            }
        }
        // The SGR sequences themselves: 24-bit (38;2 / 48;2), for each bar's colour.
        let text = String(decoding: capture.bytes, as: UTF8.self)
        #expect(text.contains("\u{1B}[48;2;"))
        #expect(!text.contains("\u{1B}[2J"), "no screen erased for a frame")

        // Stopping the player gives the terminal back: colours reset, cursor shown.
        await player.shutdown()
        try await capture.finish()
        let restored = try await ScreenModel.reading(columns: 80, rows: 24, bytes: capture.bytes)
        #expect(restored.cursorVisible)
        #expect(Array(restored.events.suffix(2)) == [.colorsReset, .cursorShown])
        #expect(restored.paintedArea?.rows == 1...12, "the picture stays")
        #expect(restored.cursorRow == 12 && restored.cursorColumn == 0, "the cursor is below the picture")
        #expect(sink.framesDrawn == 1)
    }

    @Test("the status line goes below the picture, cut to the terminal's width, without control characters")
    func statusLine() async throws {
        let capture = try PipeCapture()
        capture.startReading()
        let sink = TerminalVideoSink(
            fileDescriptor: capture.writeDescriptor, columns: 16, rows: 6, exitsOnInterrupt: false)
        sink.statusLine = "playing\u{1B}[2J " + String(repeating: "x", count: 200)
        let player = try await player(drawingOn: sink, clip: TestMedia.bars)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        try await capture.waitFor("the first frame") { $0.contains(Self.frameEnd) }
        sink.statusLine = "0.50 s"
        try await capture.waitFor("the new status line") { String(decoding: $0, as: UTF8.self).contains("0.50 s") }
        sink.restoreTerminal()
        try await capture.waitFor("the cursor shown") { String(decoding: $0, as: UTF8.self).contains("\u{1B}[?25h") }
        let screen = try await ScreenModel.reading(columns: 200, rows: 24, bytes: capture.bytes)
        #expect(screen.text(ofRow: 7) == "0.50 s")
        #expect(screen.events.filter { $0 == .screenErased }.count == 1)
        // With a status line, giving the terminal back moves the cursor below it: row 8 (7 from 0).
        #expect(screen.cursorVisible && screen.cursorRow == 7 && screen.cursorColumn == 0)
        // Cut to the terminal's width less one (a pipe's terminal: COLUMNS, else 80), so it never wraps.
        let width = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 80
        let first = try await ScreenModel.reading(
            columns: width, rows: 24,
            bytes: Array(capture.bytes[..<(capture.bytes.firstRange(of: Self.frameEnd)?.upperBound ?? 0)]))
        #expect(first.text(ofRow: 7) == String(("playing[2J " + String(repeating: "x", count: 200)).prefix(width - 1)))
        // Frames after the terminal was given back are not drawn.
        let drawn = sink.framesDrawn
        try await player.seek(to: .seconds(1))
        #expect(sink.framesDrawn == drawn)
        await player.shutdown()
    }

    @Test(
        "a status line set after the terminal was given back replaces the last one in place, the cursor below it",
        arguments: [true, false])
    func statusLineAfterGivingBack(hadStatus: Bool) async throws {
        let capture = try PipeCapture()
        capture.startReading()
        let sink = TerminalVideoSink(
            fileDescriptor: capture.writeDescriptor, columns: 16, rows: 6, exitsOnInterrupt: false)
        if hadStatus { sink.statusLine = "0:01 paused" }
        let player = try await player(drawingOn: sink, clip: TestMedia.bars)
        player.shouldAutoplay = false
        try await player.prepareToPlay()
        try await capture.waitFor("the first frame") { $0.contains(Self.frameEnd) }
        // The player's teardown gives the terminal back before the app prints its last line (as
        // mediaplay's quit can race it).
        await player.shutdown()
        try await capture.waitFor("the cursor shown") { String(decoding: $0, as: UTF8.self).contains("\u{1B}[?25h") }
        sink.statusLine = "finished: userExited"
        try await capture.waitFor("the last line") { String(decoding: $0, as: UTF8.self).contains("userExited") }
        sink.statusLine = "finished: userExited (1 frame)"
        try await capture.waitFor("the line again") { String(decoding: $0, as: UTF8.self).contains("(1 frame)") }
        let screen = try await ScreenModel.reading(columns: 80, rows: 24, bytes: capture.bytes)
        // The picture on rows 1-6, the status row 7 holding the last line only, the cursor on
        // row 8 (7 from 0).
        #expect(screen.text(ofRow: 7) == "finished: userExited (1 frame)", "\(screen.text(ofRow: 7))")
        #expect(screen.text(ofRow: 8).isEmpty)
        #expect(screen.paintedArea?.rows == 1...6, "the picture stays")
        #expect(screen.cursorVisible && screen.cursorRow == 7 && screen.cursorColumn == 0)
        #expect(Array(screen.events.suffix(2)) == [.colorsReset, .cursorShown])
        await player.shutdown()
    }

    @Test("a terminal that does not keep up loses frames; the movie is never held up, nothing queues")
    func slowTerminal() async throws {
        // A pipe of one page, not read: the first frame (about 20 KB) fills it and the writer waits.
        let capture = try PipeCapture(capacity: 4096)
        let sink = TerminalVideoSink(
            fileDescriptor: capture.writeDescriptor, columns: 64, rows: 24, exitsOnInterrupt: false)
        let player = try await player(drawingOn: sink, clip: TestMedia.bars)
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, _) = try await recorder.waitForFinish(within: .seconds(10))
        #expect(reason == .playbackEnded)
        #expect(sink.framesDrawn == 0, "the writer is still in its first frame")
        #expect(sink.framesDropped > 0)
        capture.startReading()
        // The frame it was writing, then only the newest: one frame waits at most.
        try await capture.waitFor("two frames") { $0.ranges(of: Self.frameEnd).count == 2 }
        await player.shutdown()
        try await capture.finish()
        #expect(capture.bytes.ranges(of: Self.frameEnd).count == 2)
        #expect(sink.framesDrawn == 2)
        #expect(sink.framesDrawn + sink.framesDropped <= 60)
        let screen = try await ScreenModel.reading(columns: 80, rows: 30, bytes: capture.bytes)
        #expect(screen.cursorVisible)
    }
}

/// A test's own failure to set something up.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

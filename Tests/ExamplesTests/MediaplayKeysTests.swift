import Foundation
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `mediaplay` on a pseudo-terminal, as a person runs it: keys typed, the progress line they
/// change, what the terminal shows at the end, and its settings given back. One at a time: the
/// examples' other suites count frames delivered on time, which a crowd of players would cost.
@Suite("mediaplay keys", .serialized)
struct MediaplayKeysTests {
    /// A progress line as drawn: `0:12.3 / 1:00.0 [=====>   ] playing vol 100%`.
    struct Bar: CustomStringConvertible {
        let text: String
        /// Where in the output it ends.
        let end: Int

        /// The position, in seconds (to the tenth shown).
        var position: Double? {
            guard let field = text.split(separator: " ").first else { return nil }
            let parts = field.split(separator: ":")
            guard parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) else { return nil }
            return minutes * 60 + seconds
        }

        /// The word after the bar: playing, paused, ...
        var state: String? {
            text.split(separator: "]", maxSplits: 1).last?.split(separator: " ").first.map(String.init)
        }

        var description: String { text }

        /// Every progress line in `output`, in order: each is drawn as a carriage return, the
        /// line, and erase-to-end-of-line.
        static func all(in output: [UInt8]) -> [Bar] {
            var bars: [Bar] = []
            let erase = Array("\u{1B}[K".utf8)
            var start = 0
            for range in output.ranges(of: erase) {
                defer { start = range.upperBound }
                guard let carriageReturn = output[start..<range.lowerBound].lastIndex(of: 0x0D) else { continue }
                let text = String(decoding: output[(carriageReturn + 1)..<range.lowerBound], as: UTF8.self)
                guard text.contains(" / "), text.contains("[") else { continue }
                bars.append(Bar(text: text, end: range.upperBound))
            }
            return bars
        }
    }

    /// What a terminal shows after `output`: each row's text (carriage returns, line feeds,
    /// erase-to-end-of-line, wrapping at `columns`; the only sequence mediaplay writes), and where
    /// the cursor is.
    struct Transcript {
        private(set) var rows: [String] = [""]
        private(set) var cursor = (row: 0, column: 0)
        private(set) var unknownSequences: [String] = []

        init(_ output: [UInt8], columns: Int) {
            var characters: [[Character]] = [[]]
            let text = Array(String(decoding: output, as: UTF8.self))
            var index = 0
            func newLine() {
                cursor = (cursor.row + 1, 0)
                if cursor.row == characters.count { characters.append([]) }
            }
            while index < text.count {
                let character = text[index]
                index += 1
                switch character {
                case "\u{1B}":
                    var end = index
                    while end < text.count, !text[end].isLetter { end += 1 }
                    let sequence = String(text[index..<min(end + 1, text.count)])
                    index = end + 1
                    if sequence == "[K" {
                        characters[cursor.row].removeSubrange(min(cursor.column, characters[cursor.row].count)...)
                    } else {
                        unknownSequences.append(sequence)
                    }
                case "\r":
                    cursor.column = 0
                case "\n", "\r\n":
                    // The terminal's output processing turns "\n" into "\r\n".
                    newLine()
                default:
                    if cursor.column >= columns { newLine() }
                    var row = characters[cursor.row]
                    while row.count < cursor.column { row.append(" ") }
                    if cursor.column < row.count { row[cursor.column] = character } else { row.append(character) }
                    characters[cursor.row] = row
                    cursor.column += 1
                }
            }
            rows = characters.map { String($0) }
        }
    }

    private static let right = "\u{1B}[C"
    private static let left = "\u{1B}[D"
    private static let shiftRight = "\u{1B}[1;2C"
    private static let up = "\u{1B}[A"

    private func mediaplay(_ files: [URL], columns: Int = 100) throws -> PseudoTerminalProgram {
        try PseudoTerminalProgram(
            BuildProducts.executable("mediaplay"), ["--sink", "null"] + files.map(\.path), columns: columns, rows: 30)
    }

    /// Waits for a progress line drawn after output offset `after` that satisfies `condition`.
    @discardableResult
    private func waitForBar(
        _ program: PseudoTerminalProgram, after: Int = 0, _ what: String,
        _ condition: @escaping @Sendable (Bar) -> Bool
    ) async throws -> Bar {
        try await program.waitForOutput(what) { output in
            Bar.all(in: output).contains { $0.end > after && condition($0) }
        }
        let bar = Bar.all(in: program.output).first { $0.end > after && condition($0) }
        return try #require(bar, "\(what): \(Bar.all(in: program.output).suffix(3))")
    }

    /// Waits for `text` in the output, and fails if the program ended without writing it.
    private func waitForText(_ program: PseudoTerminalProgram, _ text: String) async throws {
        try await program.waitForOutput(text.debugDescription) { String(decoding: $0, as: UTF8.self).contains(text) }
        #expect(String(decoding: program.output, as: UTF8.self).contains(text), "\(text)")
    }

    /// Whether two settings are the same in every flag and control character.
    private func same(_ a: termios, _ b: termios) -> Bool {
        var a = a
        var b = b
        let characters = withUnsafeBytes(of: &a.c_cc) { Array($0) } == withUnsafeBytes(of: &b.c_cc) { Array($0) }
        return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
            && characters
    }

    @Test("space pauses and plays, arrows seek (keyframe; shift: exact), up raises the rate, m mutes, q quits tidily")
    func keys() async throws {
        // 60 s, a keyframe every 10 frames (a third of a second).
        let clip = try await TestMedia.url(for: TestMedia.longBars)
        let program = try mediaplay([clip])
        let before = program.initialSettings
        try await waitForBar(program, "playing") { $0.state == "playing" && ($0.position ?? 0) > 0.2 }
        // Raw mode: no line editing, no echo; Ctrl-C still a signal.
        let raw = program.settings
        #expect(raw.c_lflag & tcflag_t(ICANON) == 0 && raw.c_lflag & tcflag_t(ECHO) == 0)
        #expect(raw.c_lflag & tcflag_t(ISIG) != 0 && raw.c_oflag == before.c_oflag)

        var mark = program.output.count
        program.type(" ")
        let paused = try await waitForBar(program, after: mark, "paused") { $0.state == "paused" }
        let start = try #require(paused.position)

        mark = program.output.count
        program.type(Self.right)
        // While the seek is under way the line says `seeking` and shows its target; once it has
        // landed (on the keyframe), `paused` and where it landed, which the next key starts from.
        let keyframe = try await waitForBar(program, after: mark, "5 s on, to a keyframe") {
            $0.state == "paused" && ($0.position ?? 0) > start + 4
        }
        let afterKeyframe = try #require(keyframe.position)
        #expect(abs(afterKeyframe - (start + 5)) < 0.5, "\(start) -> \(keyframe)")

        mark = program.output.count
        program.type(Self.shiftRight)
        let exact = try await waitForBar(program, after: mark, "5 s on, exact") {
            $0.state == "paused" && ($0.position ?? 0) > afterKeyframe + 4
        }
        #expect(abs((exact.position ?? 0) - (afterKeyframe + 5)) < 0.15, "\(afterKeyframe) -> \(exact)")

        mark = program.output.count
        program.type(Self.left)
        let back = try await waitForBar(program, after: mark, "5 s back") {
            $0.state == "paused" && ($0.position ?? 100) < afterKeyframe + 4
        }
        #expect(abs((back.position ?? 0) - afterKeyframe) < 0.5, "\(afterKeyframe) -> \(back)")

        mark = program.output.count
        program.type(" ")
        try await waitForBar(program, after: mark, "playing again") { $0.state == "playing" }
        program.type(Self.up)
        try await waitForBar(program, after: mark, "1.5x") { $0.text.contains(" playing 1.5x ") }
        program.type("m")
        try await waitForBar(program, after: mark, "muted") { $0.text.hasSuffix(" muted") }

        program.type("q")
        let status = try await program.waitForExit()
        #expect(status == 0, "\(program.errorText)")
        #expect(same(program.settings, before), "the terminal's settings are given back")

        // What the terminal shows: the lines, no progress line left, the cursor on an empty row.
        let screen = Transcript(program.output, columns: 100)
        #expect(screen.unknownSequences.isEmpty, "\(screen.unknownSequences)")
        let shown = screen.rows.filter { !$0.isEmpty }
        #expect(shown.first?.hasPrefix("playing \(clip.path): 160x120, [video], 60.00 s to 'null'") == true, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("keys: ") }, "\(shown)")
        #expect(shown.last == "finished: userExited", "\(shown)")
        #expect(!shown.contains { $0.contains(" / ") }, "no progress line left: \(shown)")
        #expect(screen.cursor.column == 0 && screen.rows[screen.cursor.row].isEmpty)
        // Every progress line fits in the terminal's width but one column, so none wraps.
        #expect(Bar.all(in: program.output).allSatisfy { $0.text.count <= 99 })
    }

    /// 10 s of video with two audio tracks, English and a French commentary (as TestMedia.twoLanguages).
    static let twoLanguages = TestMedia.Clip(
        fileExtension: "mkv",
        pipeline: """
            videotestsrc num-buffers=300 pattern=smpte ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! \
            x264enc speed-preset=ultrafast key-int-max=10 ! h264parse ! matroskamux name=mux ! filesink location=LOCATION \
            audiotestsrc num-buffers=431 freq=440 ! audio/x-raw,rate=44100,channels=1 ! \
            taginject tags="language-code=en,title=English" ! audioconvert ! vorbisenc ! mux. \
            audiotestsrc num-buffers=431 freq=880 ! audio/x-raw,rate=44100,channels=1 ! \
            taginject tags="language-code=fr,title=Commentary" ! audioconvert ! vorbisenc ! mux.
            """)

    @Test("t, 9 and 0, l, a, f, s and ? each say or show what they did")
    func otherKeys() async throws {
        let program = try mediaplay([try await TestMedia.url(for: Self.twoLanguages)])
        try await waitForBar(program, "playing") { $0.state == "playing" }
        program.type("t")
        try await waitForText(program, "  audio: audio 1 (fr, Vorbis, \"Commentary\")")
        var mark = program.output.count
        program.type("99")
        try await waitForBar(program, after: mark, "80 %") { $0.text.hasSuffix(" vol 80%") }
        mark = program.output.count
        program.type("0")
        try await waitForBar(program, after: mark, "90 %") { $0.text.hasSuffix(" vol 90%") }
        program.type("l")
        try await waitForBar(program, after: mark, "repeat") { $0.text.hasSuffix(" vol 90% repeat one") }
        program.type("a")
        try await waitForText(program, "  scaling: aspectFill")
        // The null sink has no window to fill the screen with.
        program.type("f")
        try await waitForText(program, "  fullscreen: unsupportedOperation: the video sink cannot show fullscreen")
        program.type("s")
        try await waitForText(program, "  subtitles: the movie has none")
        program.type("?")
        try await waitForText(program, "      t audio track, s subtitles, ? keys, q or Escape quit")
        program.type("q")
        #expect(try await program.waitForExit() == 0, "\(program.errorText)")
        let shown = Transcript(program.output, columns: 100).rows.filter { !$0.isEmpty }
        #expect(shown.last == "finished: userExited", "\(shown)")
        #expect(!shown.contains { $0.contains(" / ") }, "no progress line among the lines: \(shown)")
    }

    @Test("the window sink (Xvfb): f fills the screen and gives it back; keys typed into the window work too")
    func window() async throws {
        let display = try await VirtualDisplay()
        let program = try PseudoTerminalProgram(
            BuildProducts.executable("mediaplay"),
            ["--sink", "window:display=\(display.name)", try await TestMedia.url(for: TestMedia.longBars).path],
            columns: 100, rows: 30)
        try await waitForBar(program, "playing") { $0.state == "playing" }
        program.type("f")
        try await waitForText(program, "  fullscreen on")
        program.type("f")
        try await waitForText(program, "  fullscreen off")
        // The window is at the screen's top left, 160x120; with no window manager the keyboard
        // goes to the window under the pointer.
        func press(_ key: String) async throws {
            let result = try await ProcessRunner.run(
                "xdotool", ["mousemove", "20", "20", "key", key], environment: ["DISPLAY": display.name])
            try #require(result.status == 0, "xdotool: \(result.standardError)")
        }
        var mark = program.output.count
        try await press("space")
        let paused: Bar
        do {
            paused = try await waitForBar(program, after: mark, "paused from the window") { $0.state == "paused" }
        } catch {
            // Where the windows and the pointer were when the key went astray.
            let tree = try? await ProcessRunner.run("xwininfo", ["-root", "-tree", "-display", display.name])
            let pointer = try? await ProcessRunner.run(
                "xdotool", ["getmouselocation"], environment: ["DISPLAY": display.name])
            Issue.record("windows: \(tree?.standardOutput ?? "?"); pointer: \(pointer?.standardOutput ?? "?")")
            throw error
        }
        mark = program.output.count
        try await press("shift+Right")
        let moved = try await waitForBar(program, after: mark, "exactly 5 s on") {
            $0.state == "paused" && ($0.position ?? 0) > (paused.position ?? 0) + 4
        }
        #expect(abs((moved.position ?? 0) - (paused.position ?? 0) - 5) < 0.15, "\(paused) -> \(moved)")
        try await press("a")
        try await waitForText(program, "  scaling: aspectFill")
        try await press("q")
        #expect(try await program.waitForExit() == 0, "\(program.errorText)")
        let shown = Transcript(program.output, columns: 100).rows.filter { !$0.isEmpty }
        #expect(shown.last == "finished: userExited", "\(shown)")
        // The X server goes when `display` does: after mediaplay, whose window it showed.
        withExtendedLifetime(display) {}
    }

    /// 20 s of bars in MPEG-TS: over HTTP it goes through a download queue whose level the
    /// player reads (for an MP4 from a web server, `playableDuration` is the share of the file
    /// read, BufferingTests).
    static let longTransportStream = TestMedia.Clip(
        fileExtension: "ts",
        pipeline: """
            videotestsrc num-buffers=600 pattern=smpte ! video/x-raw,format=I420,width=160,height=120,framerate=30/1 ! \
            x264enc key-int-max=10 speed-preset=ultrafast ! h264parse ! mpegtsmux ! filesink location=LOCATION
            """)

    @Test("a movie from a web server shows how much is buffered ahead, and a bar part for it")
    func buffered() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: try await TestMedia.url(for: Self.longTransportStream), to: folder.appendingPathComponent("movie.ts"))
        let server = try await LoopbackHTTPServer(serving: folder)
        let program = try PseudoTerminalProgram(
            BuildProducts.executable("mediaplay"), ["--sink", "null", server.url("movie.ts")], columns: 100, rows: 30)
        // The loopback server sends the movie at once: soon most of it is ahead of the playhead.
        let bar = try await waitForBar(program, "buffered") { bar in
            guard bar.state == "playing", let amount = bar.text.components(separatedBy: " buffered ").last else {
                return false
            }
            return (Double(amount.prefix { $0 != " " }) ?? 0) > 5
        }
        #expect(bar.text.contains(">-"), "the buffered part follows the head: \(bar)")
        program.type("q")
        #expect(try await program.waitForExit() == 0, "\(program.errorText)")
        _ = server
    }

    @Test("Escape alone quits, once its timeout has passed")
    func escape() async throws {
        let program = try mediaplay([try await TestMedia.url(for: TestMedia.longBars)])
        try await waitForBar(program, "playing") { $0.state == "playing" }
        program.type("\u{1B}")
        #expect(try await program.waitForExit() == 0, "\(program.errorText)")
        let shown = Transcript(program.output, columns: 100).rows.filter { !$0.isEmpty }
        #expect(shown.last == "finished: userExited", "\(shown)")
        #expect(same(program.settings, program.initialSettings))
    }

    @Test("n and p move in the queue, and say which movie plays")
    func queue() async throws {
        let first = try await TestMedia.url(for: TestMedia.longBars)
        let second = try await TestMedia.url(for: TestMedia.longBarsWithAudio)
        let program = try mediaplay([first, second])
        try await waitForBar(program, "playing") { $0.state == "playing" }
        program.type("n")
        try await waitForText(program, "next (2 of 2): \(second.path)")
        program.type("n")
        try await waitForText(program, "the last movie: none after it")
        program.type("p")
        try await waitForText(program, "previous (1 of 2): \(first.path)")
        // Still playing the queue, after both skips.
        let mark = program.output.count
        try await waitForBar(program, after: mark, "playing the first again") { $0.state == "playing" }
        program.type("q")
        #expect(try await program.waitForExit() == 0, "\(program.errorText)")
        let shown = Transcript(program.output, columns: 100).rows.filter { !$0.isEmpty }
        #expect(shown.last == "finished: userExited", "\(shown)")
    }

    @Test(
        "Ctrl-C (SIGINT) and SIGTERM clear the progress line, give the terminal back and exit 130 and 143",
        arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signals(signal: Int32, status: Int32) async throws {
        let program = try mediaplay([try await TestMedia.url(for: TestMedia.longBars)])
        try await waitForBar(program, "playing") { $0.state == "playing" }
        #expect(!program.echoes)
        program.send(signal)
        #expect(try await program.waitForExit() == status, "\(program.errorText)")
        #expect(same(program.settings, program.initialSettings))
        #expect(program.echoes)
        let screen = Transcript(program.output, columns: 100)
        #expect(screen.cursor.column == 0 && screen.rows[screen.cursor.row].isEmpty, "\(screen.rows)")
        #expect(!screen.rows.contains { $0.contains(" / ") }, "no progress line left: \(screen.rows)")
    }

    @Test("Ctrl-Z (SIGTSTP) gives the shell the terminal as it was and clears the line; SIGCONT takes raw mode back")
    func suspend() async throws {
        let program = try mediaplay([try await TestMedia.url(for: TestMedia.longBars)])
        try await waitForBar(program, "playing") { $0.state == "playing" }
        program.send(SIGTSTP)
        // The settings are given back before the line is cleared, and the process stops after.
        let cleared = Array("\r\u{1B}[K".utf8)
        try await program.waitForOutput { $0.suffix(cleared.count).elementsEqual(cleared) }
        #expect(program.output.suffix(cleared.count).elementsEqual(cleared))
        #expect(same(program.settings, program.initialSettings), "cooked while stopped")
        // A SIGCONT sent before the process has stopped itself would leave it stopped for good.
        try await program.waitUntilStopped()
        let mark = program.output.count
        program.send(SIGCONT)
        try await waitForBar(program, after: mark, "the line again") { $0.state == "playing" }
        let raw = program.settings
        #expect(raw.c_lflag & tcflag_t(ICANON) == 0 && raw.c_lflag & tcflag_t(ECHO) == 0, "raw again")
        program.type("q")
        #expect(try await program.waitForExit() == 0, "\(program.errorText)")
        #expect(same(program.settings, program.initialSettings))
    }

    @Test("a resized terminal (SIGWINCH) gets the progress line at its new width at once")
    func resize() async throws {
        let program = try mediaplay([try await TestMedia.url(for: TestMedia.longBars)], columns: 100)
        let wide = try await waitForBar(program, "playing") { $0.state == "playing" }
        #expect(wide.text.count > 60)
        program.type(" ")  // paused: only the resize draws the line again
        let mark = try await waitForBar(program, "paused") { $0.state == "paused" }.end
        program.resize(columns: 50, rows: 30)
        let narrow = try await waitForBar(program, after: mark, "narrow") { $0.text.count <= 49 }
        #expect(narrow.text.hasSuffix("] paused vol 100%"), "\(narrow)")
        program.type("q")
        #expect(try await program.waitForExit() == 0)
    }

    @Test("piped, mediaplay writes plain lines: no escape sequence, no carriage return, no raw mode")
    func piped() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(BuildProducts.executable("mediaplay"), ["--sink", "null", clip.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("\u{1B}") && !result.standardOutput.contains("\r"))
        #expect(!result.standardOutput.contains("keys:"))
        let progress = result.standardOutput.split(separator: "\n").filter { $0.hasSuffix(" s") }
        #expect(progress.count >= 3, "a line every half second: \(result.standardOutput)")
    }
}

import Foundation
import MediaEngine
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `mediaplay --sink terminal` in a pseudo-terminal, as a person runs it: what the terminal shows
/// while it plays and after it ends, and what is left of the terminal's settings.
@Suite("Terminal video sink: mediaplay in a terminal")
struct MediaplayTerminalTests {
    private static let frameEnd = Array("\u{1B}[?2026l".utf8)

    private func mediaplay(
        _ clip: TestMedia.Clip, sink: String = "terminal", columns: Int, rows: Int
    ) async throws -> PseudoTerminalProgram {
        let url = try await TestMedia.url(for: clip)
        return try PseudoTerminalProgram(
            BuildProducts.executable("mediaplay"), ["--sink", sink, url.path], columns: columns, rows: rows)
    }

    /// The output up to the end of the last frame written (searched from the end: the output
    /// runs to megabytes).
    private func throughLastFrame(_ output: [UInt8]) -> [UInt8] {
        let end = Self.frameEnd
        var start = output.count - end.count
        while start >= 0 {
            if output[start] == end[0] && output[start..<(start + end.count)].elementsEqual(end) {
                return Array(output[..<(start + end.count)])
            }
            start -= 1
        }
        return []
    }

    @Test("plays to the end sized to the terminal, keeping the movie's shape, and gives the terminal back")
    func playsToTheEnd() async throws {
        let program = try await mediaplay(TestMedia.bars, columns: 48, rows: 14)
        // Echo while it plays is checked by the interrupt test below: this clip lasts 2 s, and a
        // test thread on 2 loaded cores once looked only after mediaplay had ended and given echo back.
        let status = try await program.waitForExit()
        #expect(status == 0, "\(program.errorText)")
        let output = program.output

        // The last frame: the terminal's whole width and all its rows but the last, cursor hidden.
        let playing = try await ScreenModel.reading(columns: 48, rows: 14, bytes: throughLastFrame(output))
        let area = try #require(playing.paintedArea)
        #expect(area.rows == 1...13 && area.columns == 1...48, "\(area)")
        #expect(!playing.cursorVisible)
        #expect(!playing.text(ofRow: 14).isEmpty, "what mediaplay prints goes on the status row")
        // The movie's shape: 4:3 in 48x26 pixels is 35x26, black bars on both sides.
        let pictureColumns = (1...48).filter { column in
            guard let color = playing[4, column].upper else { return false }
            return !color.isClose(to: .black, tolerance: 40)
        }
        #expect((34...36).contains(pictureColumns.count), "\(pictureColumns)")
        #expect(pictureColumns.first.map { (6...8).contains($0) } == true, "centred: \(pictureColumns)")

        // The screen only erased once, before the first frame; no colour set twice in a row.
        #expect(playing.events.filter { $0 == .screenErased }.count == 1)
        #expect(!playing.events.contains { if case .redundantColor = $0 { true } else { false } })

        // At the end: colours reset, cursor shown below the last line, the picture left in place.
        let ended = try await ScreenModel.reading(columns: 48, rows: 14, bytes: output)
        #expect(ended.events.first == .screenErased)
        #expect(ended.events.firstIndex(of: .cursorHidden).map { $0 < 3 } == true)
        #expect(Array(ended.events.suffix(2)) == [.colorsReset, .cursorShown])
        #expect(ended.cursorVisible)
        #expect(ended.text(ofRow: 13).hasPrefix("finished: playbackEnded ("), "\(ended.text(ofRow: 13))")
        #expect(ended.cursorRow == 13 && ended.cursorColumn == 0 && ended.text(ofRow: 14).isEmpty)
        #expect(ended.paintedArea?.rows == 1...12, "the picture, moved up one row for the last line")
        #expect(program.echoes, "echo is back on")
    }

    @Test("keys work while the sink draws: the status line shows the progress, q gives the terminal back")
    func keys() async throws {
        let program = try await mediaplay(TestMedia.longBars, columns: 60, rows: 16)
        try await program.waitForOutput { String(decoding: $0, as: UTF8.self).contains("] playing vol 100%") }
        program.type(" ")
        try await program.waitForOutput { String(decoding: $0, as: UTF8.self).contains("] paused vol 100%") }
        #expect(String(decoding: program.output, as: UTF8.self).contains("] paused vol 100%"))
        program.type("q")
        #expect(try await program.waitForExit() == 0, "\(program.errorText)")
        let screen = try await ScreenModel.reading(columns: 60, rows: 16, bytes: program.output)
        #expect(Array(screen.events.suffix(2)) == [.colorsReset, .cursorShown])
        #expect(screen.text(ofRow: 15).hasPrefix("finished: userExited ("), "\(screen.text(ofRow: 15))")
        #expect(program.echoes)
    }

    @Test("Ctrl-C (SIGINT) while playing gives the terminal back and exits with status 130")
    func interrupt() async throws {
        let program = try await mediaplay(TestMedia.longBars, columns: 40, rows: 12)
        try await program.waitForOutput { $0.contains(Self.frameEnd) }
        #expect(!program.echoes, "echo is off while the movie plays")
        program.send(SIGINT)
        let status = try await program.waitForExit()
        #expect(status == 130, "\(program.errorText)")
        let screen = try await ScreenModel.reading(columns: 40, rows: 12, bytes: program.output)
        #expect(screen.cursorVisible)
        #expect(Array(screen.events.suffix(2)) == [.colorsReset, .cursorShown])
        #expect(screen.paintedArea != nil, "the picture stays")
        #expect(program.echoes)
    }

    @Test("a program that exits while the sink still draws gets the terminal back at exit")
    func exitWhileDrawing() async throws {
        // fd=0: the terminal through standard input (opened for reading and writing), so mediaplay
        // prints to standard output as for any other sink and never gives the terminal back itself.
        let program = try await mediaplay(TestMedia.bars, sink: "terminal:fd=0", columns: 40, rows: 12)
        let status = try await program.waitForExit()
        #expect(status == 0, "\(program.errorText)")
        let screen = try await ScreenModel.reading(columns: 40, rows: 12, bytes: program.output)
        #expect(screen.events.contains(.cursorHidden))
        #expect(Array(screen.events.suffix(2)) == [.colorsReset, .cursorShown])
        #expect(screen.cursorVisible)
        #expect(program.echoes)
    }

    @Test(
        "with standard output a pipe, the size comes from COLUMNS and LINES, else it is 80x24",
        arguments: [(["COLUMNS": "30", "LINES": "10"], 30, 10), (["COLUMNS": "", "LINES": ""], 80, 24)])
    func sizeFromEnvironment(environment: [String: String], columns: Int, rows: Int) async throws {
        let url = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.runForData(
            BuildProducts.executable("mediaplay"), ["--sink", "terminal", url.path], environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        let output = [UInt8](result.standardOutput)
        // A screen larger than the one assumed, so a picture of another size shows.
        let screen = try await ScreenModel.reading(columns: 120, rows: 40, bytes: throughLastFrame(output))
        let area = try #require(screen.paintedArea)
        #expect(area.columns == 1...columns && area.rows == 1...(rows - 1), "\(area)")
    }

    @Test("a resized terminal (SIGWINCH) gets the picture laid out again at its new size")
    func resize() async throws {
        let program = try await mediaplay(TestMedia.longBars, columns: 40, rows: 12)
        try await program.waitForOutput { $0.contains(Self.frameEnd) }
        let before = program.output.count
        program.resize(columns: 64, rows: 20)
        // The screen is erased once for the new size, then frames are drawn on it.
        let erase = Array("\u{1B}[2J".utf8)
        try await program.waitForOutput { output in
            guard let start = output[before...].firstRange(of: erase)?.lowerBound else { return false }
            return output[start...].ranges(of: Self.frameEnd).count >= 2
        }
        program.send(SIGINT)
        #expect(try await program.waitForExit() == 130)
        let output = program.output
        let start = try #require(output[before...].firstRange(of: erase)?.lowerBound)
        let resized = try await ScreenModel.reading(
            columns: 64, rows: 20, bytes: throughLastFrame(Array(output[start...])))
        // Frames of 40x22 pixels (grid 40x11), fitted into 64x38: 64x36, 18 rows of 19.
        let area = try #require(resized.paintedArea)
        #expect(area.columns == 1...64 && area.rows.count == 18, "\(area)")
        #expect(resized.cursorRow == 19, "the cursor waits on the new status row")
    }
}

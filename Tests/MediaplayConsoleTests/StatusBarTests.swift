import Foundation
import MediaplayConsole
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the status bar writes, read back from a pipe: each draw in place, lines above it, nothing
/// for an unchanged line, and nothing left after it is closed.
@Suite("Status bar")
struct StatusBarTests {
    /// Runs `body` with a bar on a pipe and returns what it wrote.
    private func written(_ body: (StatusBar) -> Void) throws -> String {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let bar = StatusBar(descriptor: ends[1])
        body(bar)
        close(ends[1])
        let data = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a line is drawn in place, once while unchanged; printed lines go above it and it comes back")
    func drawAndPrint() throws {
        let output = try written { bar in
            bar.show("0:01.0 playing")
            bar.show("0:01.0 playing")
            bar.show("0:01.5 playing")
            bar.print("next movie")
            bar.show("0:01.5 playing", force: true)
            bar.close()
            bar.show("0:02.0 playing")
            bar.print("finished")
        }
        #expect(
            output
                == "\r0:01.0 playing\u{1B}[K" + "\r0:01.5 playing\u{1B}[K"
                + "\r\u{1B}[Knext movie\n0:01.5 playing\u{1B}[K"
                + "\r0:01.5 playing\u{1B}[K" + "\r\u{1B}[K" + "finished\n")
    }

    @Test("hidden (Ctrl-Z), nothing is drawn until a forced draw; printed lines still go out")
    func hide() throws {
        let output = try written { bar in
            bar.show("a")
            bar.hide()
            bar.show("b")
            bar.print("line")
            bar.show("c", force: true)
        }
        #expect(output == "\ra\u{1B}[K" + "\r\u{1B}[K" + "line\n" + "\rc\u{1B}[K")
    }

    @Test("a bar that never drew clears nothing; a pipe is 80 columns")
    func nothingShown() throws {
        var columns = 0
        let output = try written { bar in
            columns = bar.columns
            bar.print("only a line")
            bar.close()
        }
        #expect(output == "only a line\n")
        #expect(columns == 80)
    }
}

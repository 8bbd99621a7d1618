import MediaplayConsole
import Testing

/// The bytes a terminal sends, read as keys: whole, split across reads at every byte, and cut.
@Suite("Key decoder")
struct KeyDecoderTests {
    private static let escape: UInt8 = 0x1B

    /// The keys of `bytes` read in one piece, then a flush (the reader's timeout).
    private func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(bytes) + decoder.flush()
    }

    private func keys(_ text: String) -> [Key] { keys(Array(text.utf8)) }

    @Test("printable keys, space, Return, Tab, Backspace and Ctrl-letters")
    func plainKeys() {
        #expect(keys(" qf+9") == [.character(" "), .character("q"), .character("f"), .character("+"), .character("9")])
        #expect(keys([0x0D, 0x0A, 0x09, 0x7F, 0x08]) == [.enter, .enter, .tab, .backspace, .backspace])
        #expect(keys([0x01, 0x1A]) == [.control("a"), .control("z")])
        #expect(keys([0x00, 0x1C]) == [.other([0x00]), .other([0x1C])])
    }

    @Test("arrows in normal and application mode, with Shift (xterm and rxvt), and other modifiers")
    func arrows() {
        #expect(
            keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [
                .arrow(.up, shift: false), .arrow(.down, shift: false), .arrow(.right, shift: false),
                .arrow(.left, shift: false),
            ])
        #expect(keys("\u{1B}OC\u{1B}OD") == [.arrow(.right, shift: false), .arrow(.left, shift: false)])
        #expect(keys("\u{1B}[1;2C\u{1B}[1;2D") == [.arrow(.right, shift: true), .arrow(.left, shift: true)])
        #expect(keys("\u{1B}[c\u{1B}[d") == [.arrow(.right, shift: true), .arrow(.left, shift: true)])
        // Ctrl (5) and Alt (3) are not told apart from a plain arrow; Shift-Ctrl (6) is Shift.
        #expect(
            keys("\u{1B}[1;5C\u{1B}[1;3D\u{1B}[1;6A") == [
                .arrow(.right, shift: false), .arrow(.left, shift: false), .arrow(.up, shift: true),
            ])
        #expect(keys("\u{1B}[1C") == [.arrow(.right, shift: false)])
    }

    @Test("other sequences are one key each, never Escape, and the keys after them are read")
    func otherSequences() {
        #expect(keys("\u{1B}[5~q") == [.other(Array("\u{1B}[5~".utf8)), .character("q")])
        #expect(keys("\u{1B}[15;2~ ") == [.other(Array("\u{1B}[15;2~".utf8)), .character(" ")])
        #expect(keys("\u{1B}OP") == [.other(Array("\u{1B}OP".utf8))])
        #expect(keys("\u{1B}[1;99C") == [.other(Array("\u{1B}[1;99C".utf8))])
        #expect(keys("\u{1B}[2;2C") == [.other(Array("\u{1B}[2;2C".utf8))])
        // Alt-x: ESC and the key.
        #expect(keys("\u{1B}x ") == [.other([Self.escape, 0x78]), .character(" ")])
        // A byte that cannot be in a sequence ends it.
        #expect(
            keys([Self.escape, 0x5B, 0x31, 0x0A, 0x71]) == [.other([Self.escape, 0x5B, 0x31, 0x0A]), .character("q")])
    }

    @Test("Escape alone waits for the timeout; two in a row are two")
    func loneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([Self.escape]).isEmpty)
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.isWaiting)
        #expect(decoder.flush().isEmpty)
        // The first of two is alone: the second may start a sequence, so it waits.
        #expect(decoder.decode([Self.escape, Self.escape]) == [.escape])
        #expect(decoder.flush() == [.escape])
        // Escape then an arrow: both.
        #expect(decoder.decode(Array("\u{1B}\u{1B}[C".utf8)) == [.escape, .arrow(.right, shift: false)])
        #expect(KeyDecoder.escapeTimeout == .milliseconds(100))
    }

    @Test("a sequence cut by the timeout is another key, not Escape (a slow link must not quit)")
    func cutSequence() {
        for cut in ["\u{1B}[", "\u{1B}[1;", "\u{1B}[1;2", "\u{1B}O"] {
            var decoder = KeyDecoder()
            #expect(decoder.decode(Array(cut.utf8)).isEmpty, "\(cut.debugDescription)")
            #expect(decoder.flush() == [.other(Array(cut.utf8))], "\(cut.debugDescription)")
        }
    }

    @Test("every sequence split across two reads at every byte gives the same keys")
    func splitAcrossReads() {
        let input = Array("a\u{1B}[1;2C \u{1B}OD\u{1B}[D\u{1B}[5~é€😀\u{1B}[c\r".utf8)
        let whole = keys(input)
        #expect(whole.count == 11, "\(whole)")
        #expect(whole.last == .enter)
        for split in 1..<input.count {
            var decoder = KeyDecoder()
            let read = decoder.decode(input[..<split]) + decoder.decode(input[split...])
            #expect(read == whole, "split at \(split)")
        }
        // One byte per read, as a slow terminal may send them.
        var decoder = KeyDecoder()
        #expect(input.flatMap { decoder.decode([$0]) } == whole)
    }

    @Test("UTF-8 characters whole, split, and malformed")
    func utf8() {
        #expect(keys("é€😀") == [.character("é"), .character("€"), .character("😀")])
        var decoder = KeyDecoder()
        #expect(decoder.decode([0xE2, 0x82]).isEmpty)
        #expect(decoder.decode([0xAC]) == [.character("€")])
        #expect(keys([0xFF, 0x71]) == [.other([0xFF]), .character("q")])
        #expect(keys([0xC3, 0x71]) == [.other([0xC3]), .character("q")])
        #expect(keys([0xE2, 0x82]) == [.other([0xE2, 0x82])])
        // An overlong encoding of '/' is not a character.
        #expect(keys([0xC0, 0xAF]) == [.other([0xC0]), .other([0xAF])])
    }

    @Test("a sequence that never ends is given up past the longest, and reading goes on")
    func endlessSequence() {
        var decoder = KeyDecoder()
        let endless = [Self.escape, 0x5B] + [UInt8](repeating: 0x31, count: 40)
        let read = decoder.decode(endless)
        #expect(read == [.other(endless)])
        #expect(!decoder.isWaiting)
        #expect(decoder.decode(Array(" ".utf8)) == [.character(" ")])
    }

    @Test("keys are named as a person would")
    func descriptions() {
        #expect(Key.character(" ").description == "space")
        #expect(Key.arrow(.left, shift: true).description == "shift-left")
        #expect(Key.control("a").description == "ctrl-a")
        #expect(Key.escape.description == "escape")
    }
}

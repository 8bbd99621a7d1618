import MediaTestSupport
import Testing

@testable import MediaEngineCore

/// The closed-caption decoder without a movie. CEA-608: each caption mode, the character sets,
/// channels and fields, parity, the repeats of control codes, XDS, and every way captions are
/// carried. CEA-708: windows defined, shown, hidden, cleared and deleted, the pen, rolling text,
/// packets over several frames, and commands cut short.
@Suite("Closed-caption decoder")
struct ClosedCaptionDecoderTests {
    /// Feeds pairs one a frame (as field-1 pairs) and returns what each frame showed on `channel`.
    static func shown(
        _ pairs: [CEA608Writer.Pair], channel: ClosedCaptionChannel = .cc1, decoder: inout ClosedCaptionDecoder
    ) -> [String] {
        pairs.map { pair in
            _ = decoder.decode([pair.0, pair.1], carriage: .cea608Pairs)
            return decoder.text(of: channel)
        }
    }

    static func shown(_ pairs: [CEA608Writer.Pair], channel: ClosedCaptionChannel = .cc1) -> [String] {
        var decoder = ClosedCaptionDecoder()
        return shown(pairs, channel: channel, decoder: &decoder)
    }

    @Test("pop-on: nothing shows while the caption is loaded; EOC shows it whole; EDM erases it")
    func popOn() {
        var decoder = ClosedCaptionDecoder()
        let pairs = CEA608Writer.popOn(["HELLO WORLD"])
        let frames = Self.shown(pairs, decoder: &decoder)
        #expect(frames.dropLast(2).allSatisfy { $0.isEmpty })
        #expect(frames.suffix(2) == ["HELLO WORLD", "HELLO WORLD"])
        #expect(Self.shown(CEA608Writer.eraseDisplayed(), decoder: &decoder) == ["", ""])
        let update = decoder.decode([], carriage: .cea608Pairs)
        #expect(update.channels == [.cc1])
    }

    @Test("pop-on over two rows; the next caption replaces the first at its EOC, not before")
    func twoRows() {
        var decoder = ClosedCaptionDecoder()
        _ = Self.shown(CEA608Writer.popOn(["First line", "and second"]), decoder: &decoder)
        #expect(decoder.text(of: .cc1) == "First line\nand second")
        let next = Self.shown(CEA608Writer.popOn(["Next"]), decoder: &decoder)
        #expect(next.dropLast(2).allSatisfy { $0 == "First line\nand second" })
        #expect(next.last == "Next")
    }

    @Test("roll-up: each line appears as it comes on the bottom row and scrolls up, the window 2 rows deep")
    func rollUp() {
        var decoder = ClosedCaptionDecoder()
        let first = Self.shown(CEA608Writer.rollUp("ONE"), decoder: &decoder)
        #expect(first.last == "ONE")
        #expect(first.contains("ON"), "text shows as it comes: \(first)")
        _ = Self.shown(CEA608Writer.rollUp("TWO"), decoder: &decoder)
        #expect(decoder.text(of: .cc1) == "ONE\nTWO")
        _ = Self.shown(CEA608Writer.rollUp("THREE"), decoder: &decoder)
        #expect(decoder.text(of: .cc1) == "TWO\nTHREE", "two rows: the oldest line goes")
    }

    @Test("paint-on: characters show where the cursor is as they come")
    func paintOn() {
        let pairs = CEA608Writer.control(0x14, 0x29) + CEA608Writer.preamble(row: 15) + CEA608Writer.characters("ABCD")
        #expect(Self.shown(pairs).suffix(2) == ["AB", "ABCD"])
    }

    @Test("a control code's repeat is dropped: one backspace from a pair sent twice; a third is a new code")
    func repeatedControl() {
        let base = CEA608Writer.control(0x14, 0x29) + CEA608Writer.preamble(row: 15) + CEA608Writer.characters("ABCD")
        let backspace = CEA608Writer.control(0x14, 0x21)
        #expect(Self.shown(base + backspace).last == "ABC")
        #expect(Self.shown(base + backspace + [backspace[0]]).last == "AB")
    }

    @Test("special, extended and the standard set's own characters")
    func characterSets() {
        let paint = CEA608Writer.control(0x14, 0x29) + CEA608Writer.preamble(row: 15)
        let music = CEA608Writer.control(0x11, 0x37)
        #expect(Self.shown(paint + music + CEA608Writer.characters(" la")).last == "♪ la")
        // "E" then the extended É, which replaces it (decoders without it show the E).
        let cafe = CEA608Writer.characters("CAFE") + CEA608Writer.control(0x12, 0x21)
        #expect(Self.shown(paint + cafe).last == "CAFÉ")
        // The standard set differs from ASCII in ten codes: * is á, \ is é, ~ is ñ, 0x7F a block.
        #expect(Self.shown(paint + CEA608Writer.characters("ma*ana~")).last == "maáanañ")
        let germanSharpS = CEA608Writer.characters("s") + CEA608Writer.control(0x13, 0x34)
        #expect(Self.shown(paint + germanSharpS).last == "ß")
    }

    @Test("CC2 has its own memories: its codes carry the channel bit and its characters follow them")
    func secondChannel() {
        var decoder = ClosedCaptionDecoder()
        _ = Self.shown(CEA608Writer.popOn(["uno"], channel: 1), decoder: &decoder)
        _ = Self.shown(CEA608Writer.popOn(["one"], channel: 0), decoder: &decoder)
        #expect(decoder.text(of: .cc2) == "uno")
        #expect(decoder.text(of: .cc1) == "one")
        #expect(decoder.decode([], carriage: .cea608Pairs).channels == [.cc1, .cc2])
    }

    @Test("the second field is CC3 and CC4 (cc_type 1 in cc_data); its XDS packets are not captions")
    func secondField() {
        var decoder = ClosedCaptionDecoder()
        func field2(_ pairs: [CEA608Writer.Pair]) {
            for pair in pairs { _ = decoder.decode([0xFD, pair.0, pair.1], carriage: .cea708Data) }
        }
        // An XDS packet (program name "AB"): start 0x01 0x03, data, end 0x0F with checksum.
        field2([(0x01, 0x83), (CEA608Writer.withParity(0x41), CEA608Writer.withParity(0x42)), (0x8F, 0x80)])
        #expect(decoder.decode([], carriage: .cea708Data).channels.isEmpty)
        field2(CEA608Writer.popOn(["third"]))
        #expect(decoder.text(of: .cc3) == "third")
        #expect(decoder.text(of: .cc1).isEmpty)
        #expect(decoder.decode([], carriage: .cea708Data).channels == [.cc3])
    }

    @Test("parity: a pair whose first byte fails is dropped; a second byte that fails shows as a block")
    func parity() {
        let paint = CEA608Writer.control(0x14, 0x29) + CEA608Writer.preamble(row: 15)
        let bad: CEA608Writer.Pair = (0x41, 0x42)  // 'A' and 'B' with even parity
        #expect(Self.shown(paint + [bad]).last == "")
        let half: CEA608Writer.Pair = (CEA608Writer.withParity(0x41), 0x42)
        #expect(Self.shown(paint + [half]).last == "A█")
    }

    @Test("every carriage gives the same pairs: bare pairs, SMPTE 334 triplets, cc_data, caption distribution packets")
    func carriages() {
        let pair: (UInt8, UInt8) = (0x94, 0x2F)
        #expect(
            CaptionCarriage.cea608Pairs.pairs(in: [pair.0, pair.1]) == [.init(field: 1, first: 0x94, second: 0x2F)])
        #expect(
            CaptionCarriage.smpte334.pairs(in: [0x00, pair.0, pair.1]) == [.init(field: 2, first: 0x94, second: 0x2F)])
        #expect(
            CaptionCarriage.smpte334.pairs(in: [0x80, pair.0, pair.1]) == [.init(field: 1, first: 0x94, second: 0x2F)])
        // cc_data: a DTVCC triplet (cc_type 2) and an invalid one are skipped.
        let ccData: [UInt8] = [0xFE, 0x01, 0x02, 0xF8, 0x11, 0x22, 0xFC, pair.0, pair.1]
        #expect(CaptionCarriage.cea708Data.pairs(in: ccData) == [.init(field: 1, first: 0x94, second: 0x2F)])
        // A CDP with a time code section, then the cc_data section (0x72, count 3), then a footer.
        let cdp: [UInt8] =
            [0x96, 0x69, 0, 0x4F, 0xC3, 0x00, 0x01] + [0x71, 0, 0, 0, 0] + [0x72, 0xE3] + ccData + [
                0x74, 0x00, 0x01, 0x00,
            ]
        var sized = cdp
        sized[2] = UInt8(cdp.count)
        #expect(CaptionCarriage.cea708Packet.pairs(in: sized) == [.init(field: 1, first: 0x94, second: 0x2F)])
        // Damaged packets give what they hold, or nothing.
        #expect(CaptionCarriage.cea708Packet.pairs(in: Array(sized.prefix(17))).isEmpty)
        #expect(CaptionCarriage.cea708Packet.pairs(in: [0x96, 0x69, 0xFF, 0x4F, 0x40, 0, 0, 0x72, 0xFF]).isEmpty)
        #expect(CaptionCarriage.cea708Packet.pairs(in: [0x96]).isEmpty)
        #expect(CaptionCarriage.cea608Pairs.pairs(in: [0x94]).isEmpty)
        #expect(CaptionCarriage.smpte334.pairs(in: [0x80, 0x94]).isEmpty)
    }

    @Test("any bytes in any carriage decode without a trap, and the text stays within the screen")
    func hostileBytes() {
        var generator = SeededRandom(seed: 608)
        var decoder = ClosedCaptionDecoder()
        for round in 0..<4_000 {
            let count = Int(generator.next() % 64)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let carriage = CaptionCarriage(rawValue: Int32(round % 4) + 1)!
            _ = decoder.decode(bytes, carriage: carriage)
        }
        for channel in ClosedCaptionChannel.allCases {
            let lines = decoder.text(of: channel).split(separator: "\n", omittingEmptySubsequences: false)
            let (rows, columns) = channel.isCEA708 ? (8 * 15, 42) : (15, 32)
            #expect(lines.count <= rows && lines.allSatisfy { $0.count <= columns })
        }
    }

    @Test("cues: a caption shows from its frame until the next change; a flush forgets; a loop back starts afresh")
    func cues() {
        let captions = ClosedCaptions()
        func feed(_ pairs: [CEA608Writer.Pair], from start: Duration) -> [ClosedCaptionChannel]? {
            var found: [ClosedCaptionChannel]?
            for (offset, pair) in pairs.enumerated() {
                let received = captions.receive([pair.0, pair.1], carriage: 1, at: start + .milliseconds(33) * offset)
                found = received.channels ?? found
            }
            return found
        }
        let popOn = CEA608Writer.popOn(["Hi"])
        #expect(feed(popOn, from: .seconds(1)) == [.cc1])
        let shownAt = Duration.seconds(1) + .milliseconds(33) * (popOn.count - 2)
        #expect(captions.cues(of: .cc1).map(\.start) == [shownAt])
        #expect(captions.cues(of: .cc1).first?.text == "Hi")
        let erase = CEA608Writer.eraseDisplayed()
        #expect(feed(erase, from: .seconds(3)) == nil, "no new channel")
        #expect(captions.cues(of: .cc1) == [TextCue(start: shownAt, end: .seconds(3), text: "Hi")])
        captions.flush()
        #expect(captions.cues(of: .cc1).isEmpty && captions.channels == [.cc1])
        _ = feed(popOn, from: .seconds(4))
        _ = feed(popOn, from: .seconds(0))
        let looped = captions.cues(of: .cc1)
        #expect(
            looped.count == 1 && looped.first?.start == .zero, "back in time: the later cues went, what shows restarts")
        captions.newMovie()
        #expect(captions.channels.isEmpty)
    }
}

/// CEA-708 services, from `cc_data` triplets as A/53 carries them.
@Suite("Closed-caption decoder: CEA-708")
struct CEA708DecoderTests {
    /// Feeds `data` for `service` as one caption channel packet, in frames of `perFrame` triplets;
    /// returns the last update.
    @discardableResult
    static func feed(
        _ data: [UInt8], service: Int = 1, perFrame: Int = 31, into decoder: inout ClosedCaptionDecoder
    ) -> ClosedCaptionDecoder.Update {
        let triplets = CEA708Writer.triplets(service: service, data)
        var update = ClosedCaptionDecoder.Update()
        for start in stride(from: 0, to: triplets.count, by: perFrame) {
            let bytes = triplets[start..<min(start + perFrame, triplets.count)].flatMap { [$0.0, $0.1, $0.2] }
            update = decoder.decode(bytes, carriage: .cea708Data)
        }
        return update
    }

    @Test("a visible window shows its text as it comes; the service is a channel from its first window")
    func visibleWindow() {
        var decoder = ClosedCaptionDecoder()
        let update = Self.feed(
            CEA708Writer.defineWindow(0, rows: 2, columns: 32, visible: true) + CEA708Writer.text("Hello"),
            into: &decoder)
        #expect(update.channels == [.service1])
        #expect(update.displayed == [.service1: "Hello"])
        #expect(decoder.text(of: .cc1).isEmpty)
    }

    @Test("a hidden window shows when displayed, goes when hidden, is blanked by clear and gone when deleted")
    func windowCommands() {
        var decoder = ClosedCaptionDecoder()
        Self.feed(
            CEA708Writer.defineWindow(3, rows: 1, columns: 20, visible: false) + CEA708Writer.text("Later"),
            into: &decoder)
        #expect(decoder.text(of: .service1).isEmpty)
        Self.feed(CEA708Writer.display([3]), into: &decoder)
        #expect(decoder.text(of: .service1) == "Later")
        Self.feed(CEA708Writer.hide([3]), into: &decoder)
        #expect(decoder.text(of: .service1).isEmpty)
        Self.feed(CEA708Writer.display([3]) + CEA708Writer.clear([3]), into: &decoder)
        #expect(decoder.text(of: .service1).isEmpty)
        Self.feed(CEA708Writer.text("Again"), into: &decoder)
        #expect(decoder.text(of: .service1) == "Again", "the pen stays where it was after a clear")
        Self.feed(CEA708Writer.delete([3]) + CEA708Writer.text("nowhere"), into: &decoder)
        #expect(decoder.text(of: .service1).isEmpty, "no current window: text goes nowhere")
    }

    @Test("carriage returns move down, then roll the window's rows up; the pen moves; backspace and form feed")
    func rollingAndPen() {
        var decoder = ClosedCaptionDecoder()
        let lines =
            CEA708Writer.text("one") + CEA708Writer.carriageReturn + CEA708Writer.text("two")
            + CEA708Writer.carriageReturn + CEA708Writer.text("three")
        Self.feed(CEA708Writer.defineWindow(0, rows: 2, columns: 32, visible: true) + lines, into: &decoder)
        #expect(decoder.text(of: .service1) == "two\nthree")
        Self.feed(
            CEA708Writer.penLocation(row: 0, column: 4) + CEA708Writer.text("X") + CEA708Writer.backspace,
            into: &decoder)
        #expect(decoder.text(of: .service1) == "two\nthree")
        Self.feed(CEA708Writer.formFeed + CEA708Writer.text("home"), into: &decoder)
        #expect(decoder.text(of: .service1) == "home")
    }

    @Test("Latin-1 (G1), the music note (0x7F) and G2's bullet after EXT1")
    func characters() {
        var decoder = ClosedCaptionDecoder()
        Self.feed(
            CEA708Writer.defineWindow(0, rows: 1, columns: 32, visible: true) + [
                0x7F, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x20, 0x10, 0x35,
            ], into: &decoder)
        #expect(decoder.text(of: .service1) == "♪ café •")
    }

    @Test("two windows, listed by priority; service 2 apart from service 1")
    func windowsAndServices() {
        var decoder = ClosedCaptionDecoder()
        Self.feed(
            CEA708Writer.defineWindow(1, rows: 1, columns: 32, visible: true, priority: 3) + CEA708Writer.text("back")
                + CEA708Writer.defineWindow(2, rows: 1, columns: 32, visible: true, priority: 1)
                + CEA708Writer.text("front"),
            into: &decoder)
        #expect(decoder.text(of: .service1) == "front\nback")
        let update = Self.feed(
            CEA708Writer.defineWindow(0, rows: 1, columns: 32, visible: true) + CEA708Writer.text("zwei"), service: 2,
            into: &decoder)
        #expect(update.channels == [.service1, .service2])
        #expect(decoder.text(of: .service2) == "zwei" && decoder.text(of: .service1) == "front\nback")
    }

    @Test(
        "a packet spread over frames is put together; a long one is cut into blocks; a packet cut short gives its whole blocks"
    )
    func packets() {
        var decoder = ClosedCaptionDecoder()
        let long = String(repeating: "ab", count: 40)  // 80 bytes: three service blocks
        Self.feed(
            CEA708Writer.defineWindow(0, rows: 3, columns: 42, visible: true) + CEA708Writer.text(long), perFrame: 2,
            into: &decoder)
        #expect(decoder.text(of: .service1) == String(long.prefix(42)), "the pen stays on the last column")
        // A packet whose size says 20 bytes, followed by a new one after 6: the first's whole block counts.
        var cut = ClosedCaptionDecoder()
        let setup = CEA708Writer.triplets(service: 1, CEA708Writer.defineWindow(0, rows: 1, columns: 32, visible: true))
        let shortBlock: [UInt8] = [0x0A, 0x22, 0x48, 0x69, 0x00, 0x00]  // size code 10, block: service 1, 2 bytes "Hi"
        let triplets =
            setup + [(0xFF, shortBlock[0], shortBlock[1]), (0xFE, shortBlock[2], shortBlock[3])]
            + CEA708Writer.triplets(service: 1, CEA708Writer.text("!"), sequence: 2)
        _ = cut.decode(triplets.flatMap { [$0.0, $0.1, $0.2] }, carriage: .cea708Data)
        #expect(cut.text(of: .service1) == "Hi!")
    }

    @Test("commands cut off at the end of a block, and codes of every kind, decode without a trap")
    func cutCommands() {
        var decoder = ClosedCaptionDecoder()
        Self.feed(
            CEA708Writer.defineWindow(0, rows: 1, columns: 32, visible: true) + CEA708Writer.text("ok"), into: &decoder)
        for cut in [
            [0x98, 0x20], [0x92, 0x01], [0x10], [0x10, 0x90], [0x10, 0x90, 0x3F], [0x18, 0x00], [0x97, 1, 2], [0x89],
        ] as [[UInt8]] {
            Self.feed(cut, into: &decoder)
        }
        #expect(decoder.text(of: .service1) == "ok")
        for code in 0...255 {
            Self.feed([UInt8(code), 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07], into: &decoder)
        }
    }
}

import MediaTestSupport
import Testing

@testable import MediaEngine

/// The CEA-608 decoder without a movie: each caption mode, the character sets, channels and
/// fields, parity, the repeats of control codes, XDS, and every way captions are carried.
@Suite("CEA-608 decoder")
struct CEA608DecoderTests {
    /// Feeds pairs one a frame (as field-1 pairs) and returns what each frame showed on `channel`.
    static func shown(
        _ pairs: [CEA608Writer.Pair], channel: ClosedCaptionChannel = .cc1, decoder: inout CEA608Decoder
    ) -> [String] {
        pairs.map { pair in
            _ = decoder.decode([pair.0, pair.1], carriage: .cea608Pairs)
            return decoder.text(of: channel)
        }
    }

    static func shown(_ pairs: [CEA608Writer.Pair], channel: ClosedCaptionChannel = .cc1) -> [String] {
        var decoder = CEA608Decoder()
        return shown(pairs, channel: channel, decoder: &decoder)
    }

    @Test("pop-on: nothing shows while the caption is loaded; EOC shows it whole; EDM erases it")
    func popOn() {
        var decoder = CEA608Decoder()
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
        var decoder = CEA608Decoder()
        _ = Self.shown(CEA608Writer.popOn(["First line", "and second"]), decoder: &decoder)
        #expect(decoder.text(of: .cc1) == "First line\nand second")
        let next = Self.shown(CEA608Writer.popOn(["Next"]), decoder: &decoder)
        #expect(next.dropLast(2).allSatisfy { $0 == "First line\nand second" })
        #expect(next.last == "Next")
    }

    @Test("roll-up: each line appears as it comes on the bottom row and scrolls up, the window 2 rows deep")
    func rollUp() {
        var decoder = CEA608Decoder()
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
        var decoder = CEA608Decoder()
        _ = Self.shown(CEA608Writer.popOn(["uno"], channel: 1), decoder: &decoder)
        _ = Self.shown(CEA608Writer.popOn(["one"], channel: 0), decoder: &decoder)
        #expect(decoder.text(of: .cc2) == "uno")
        #expect(decoder.text(of: .cc1) == "one")
        #expect(decoder.decode([], carriage: .cea608Pairs).channels == [.cc1, .cc2])
    }

    @Test("the second field is CC3 and CC4 (cc_type 1 in cc_data); its XDS packets are not captions")
    func secondField() {
        var decoder = CEA608Decoder()
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
        var generator = SplitMix64(seed: 608)
        var decoder = CEA608Decoder()
        for round in 0..<20_000 {
            let count = Int(generator.next() % 64)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let carriage = CaptionCarriage(rawValue: Int32(round % 4) + 1)!
            _ = decoder.decode(bytes, carriage: carriage)
        }
        for channel in ClosedCaptionChannel.allCases {
            let lines = decoder.text(of: channel).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count <= 15 && lines.allSatisfy { $0.count <= 32 })
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

/// A small seeded generator (SplitMix64), so the hostile-bytes test repeats.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

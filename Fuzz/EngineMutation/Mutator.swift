/// Makes one hostile input from a valid one: one to three mutations, each one of the strategies
/// below, drawn from the input's own generator. The same seed, index and valid inputs make the
/// same bytes.
struct Mutator {
    /// A mutation, named in the findings' file names.
    enum Strategy: String, CaseIterable {
        /// 1 to 16 bits flipped at random places (a third of them in the first 512 bytes, where
        /// the headers are).
        case bitFlip = "flip"
        /// A length field of the format's own (MP4 box, EBML element, PNG chunk, ADTS frame, TS
        /// section or PES length) set to 0, 1, one less or more, double, the largest the field
        /// holds, or a random value; bit flips for the subtitles.
        case sizeChange = "size"
        /// The file cut short: anywhere, or in its first 1 KB.
        case truncation = "cut"
        /// A run of bytes (a whole box or element when there are any) copied, inserted after
        /// itself or elsewhere.
        case duplication = "dup"
        /// A run of another valid input (of any format) written over or inserted into this one,
        /// or this one's head joined to another's tail.
        case splice = "splice"
    }

    let valid: [InputFormat: [UInt8]]

    /// Mutates `format`'s valid input.
    /// - Returns: The bytes and the strategies used, in order.
    func mutate(_ format: InputFormat, using generator: inout SeededGenerator) -> ([UInt8], [Strategy]) {
        var bytes = valid[format] ?? []
        let fields = SizeFields.find(in: bytes, format: format)
        var used: [Strategy] = []
        let count = Int.random(in: 1...3, using: &generator)
        for _ in 0..<count {
            let strategy = Strategy.allCases.randomElement(using: &generator)!
            used.append(strategy)
            switch strategy {
            case .bitFlip: flipBits(&bytes, using: &generator)
            case .sizeChange:
                // The fields of the valid input: earlier mutations may have moved them, which is fine.
                if let field = fields.randomElement(using: &generator) {
                    changeSize(field, of: &bytes, using: &generator)
                } else {
                    flipBits(&bytes, using: &generator)
                }
            case .truncation:
                guard !bytes.isEmpty else { continue }
                let cut =
                    Bool.random(using: &generator)
                    ? Int.random(in: 0..<bytes.count, using: &generator)
                    : Int.random(in: 0..<min(bytes.count, 1024), using: &generator)
                bytes.removeSubrange(cut...)
            case .duplication: duplicate(&bytes, fields: fields, using: &generator)
            case .splice: splice(&bytes, using: &generator)
            }
        }
        return (bytes, used)
    }

    private func flipBits(_ bytes: inout [UInt8], using generator: inout SeededGenerator) {
        guard !bytes.isEmpty else { return }
        for _ in 0..<Int.random(in: 1...16, using: &generator) {
            let limit = Int.random(in: 0..<3, using: &generator) == 0 ? min(bytes.count, 512) : bytes.count
            bytes[Int.random(in: 0..<limit, using: &generator)] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        }
    }

    private func changeSize(_ field: SizeFields.Field, of bytes: inout [UInt8], using generator: inout SeededGenerator)
    {
        let old = SizeFields.read(field, of: bytes)
        let largest: UInt64 =
            switch field.encoding {
            case .bigEndian: field.width >= 8 ? .max : (1 << UInt64(8 * field.width)) - 1
            case .ebml: field.width >= 8 ? 0x00FF_FFFF_FFFF_FFFF : (1 << UInt64(7 * field.width)) - 1
            case .adts: 0x1FFF
            case .twelveBits: 0xFFF
            }
        let choices: [UInt64] = [
            0, 1, old &- 1, old &+ 1, old &* 2, old / 2, largest, largest &- 1,
            UInt64.random(in: 0...largest, using: &generator),
            UInt64(max(0, bytes.count - field.offset)),
        ]
        SizeFields.write(choices.randomElement(using: &generator)!, into: field, of: &bytes)
    }

    private func duplicate(_ bytes: inout [UInt8], fields: [SizeFields.Field], using generator: inout SeededGenerator) {
        guard bytes.count > 1 else { return }
        var start = Int.random(in: 0..<bytes.count, using: &generator)
        var length = Int.random(in: 1...min(4096, bytes.count - start), using: &generator)
        // Half the time a whole structure: from a length field's box or element start, its stated length.
        if Bool.random(using: &generator), let field = fields.randomElement(using: &generator),
            field.offset < bytes.count
        {
            start = field.offset
            let stated = Int(clamping: SizeFields.read(field, of: bytes))
            length = max(1, min(stated + field.width, bytes.count - start, 1 << 20))
        }
        let run = Array(bytes[start..<(start + length)])
        let at = Bool.random(using: &generator) ? start + length : Int.random(in: 0...bytes.count, using: &generator)
        bytes.insert(contentsOf: run, at: min(at, bytes.count))
    }

    private func splice(_ bytes: inout [UInt8], using generator: inout SeededGenerator) {
        // In the formats' order: a dictionary's order changes with every process.
        guard let other = InputFormat.allCases.compactMap({ valid[$0] }).randomElement(using: &generator),
            !other.isEmpty, !bytes.isEmpty
        else { return }
        let from = Int.random(in: 0..<other.count, using: &generator)
        let run = other[from..<min(other.count, from + Int.random(in: 1...8192, using: &generator))]
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
            let end = min(bytes.count, at + run.count)
            bytes.replaceSubrange(at..<end, with: run)
        case 1:
            bytes.insert(contentsOf: run, at: at)
        default:
            bytes = Array(bytes[..<at]) + other[from...]
        }
    }
}

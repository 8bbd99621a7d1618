/// The CEA-608 character sets: the standard characters (ASCII but for ten codes), the special
/// characters (`0x11`/`0x19` and `0x30...0x3F`) and the extended Western European ones
/// (`0x12`/`0x1A` and `0x13`/`0x1B`, `0x20...0x3F`), which replace the standard character sent
/// before them for decoders that lack them.
enum CEA608Characters {
    /// The character of a standard code (`0x20...0x7F`, parity removed).
    static func standard(_ code: UInt8) -> Character {
        switch code {
        case 0x2A: "á"
        case 0x5C: "é"
        case 0x5E: "í"
        case 0x5F: "ó"
        case 0x60: "ú"
        case 0x7B: "ç"
        case 0x7C: "÷"
        case 0x7D: "Ñ"
        case 0x7E: "ñ"
        case 0x7F: "█"
        default: Character(Unicode.Scalar(code))
        }
    }

    /// `0x11 0x30...0x3F`, by the second byte's low 4 bits.
    private static let special: [Character] = [
        "®", "°", "½", "¿", "™", "¢", "£", "♪", "à", "\u{00A0}", "è", "â", "ê", "î", "ô", "û",
    ]

    /// The character of a special code; `code` is the second byte, `0x30...0x3F`.
    static func special(_ code: UInt8) -> Character { special[Int(code & 0x0F)] }

    /// `0x12 0x20...0x3F`: Spanish, miscellaneous and French.
    private static let extendedSpanishFrench: [Character] = [
        "Á", "É", "Ó", "Ú", "Ü", "ü", "‘", "¡", "*", "'", "—", "©", "℠", "•", "“", "”",
        "À", "Â", "Ç", "È", "Ê", "Ë", "ë", "Î", "Ï", "ï", "Ô", "Ù", "ù", "Û", "«", "»",
    ]

    /// `0x13 0x20...0x3F`: Portuguese, German and Danish.
    private static let extendedPortugueseGerman: [Character] = [
        "Ã", "ã", "Í", "Ì", "ì", "Ò", "ò", "Õ", "õ", "{", "}", "\\", "^", "_", "|", "~",
        "Ä", "ä", "Ö", "ö", "ß", "¥", "¤", "¦", "Å", "å", "Ø", "ø", "┌", "┐", "└", "┘",
    ]

    /// The character of an extended code: `set` is the first byte without its channel bit
    /// (`0x12` or `0x13`), `code` the second, `0x20...0x3F`.
    static func extended(set: UInt8, _ code: UInt8) -> Character {
        let table = set == 0x12 ? extendedSpanishFrench : extendedPortugueseGerman
        return table[Int(code & 0x1F)]
    }
}

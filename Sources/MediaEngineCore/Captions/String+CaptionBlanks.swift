extension String {
    /// The string without spaces and no-break spaces (CEA-608's and CEA-708's transparent
    /// space) at either end: a caption row as a viewer reads it.
    var trimmingCaptionBlanks: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\u{00A0}" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

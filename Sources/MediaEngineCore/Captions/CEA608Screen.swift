/// A CEA-608 caption memory: 15 rows of 32 cells. A decoder has two, the one displayed and the
/// one a pop-on caption is built in.
struct CEA608Screen: Sendable, Equatable {
    static let rows = 15
    static let columns = 32

    private var cells = [[Character]](
        repeating: [Character](repeating: " ", count: CEA608Screen.columns), count: CEA608Screen.rows)

    /// Writes `character` at `row`, `column` (each clamped into the screen).
    mutating func put(_ character: Character, row: Int, column: Int) {
        cells[Self.clampedRow(row)][Self.clampedColumn(column)] = character
    }

    /// Blanks `row` from `column` to its end.
    mutating func clear(row: Int, from column: Int = 0) {
        let row = Self.clampedRow(row)
        for index in Self.clampedColumn(column)..<Self.columns { cells[row][index] = " " }
    }

    /// Blanks every row.
    mutating func clear() { self = CEA608Screen() }

    /// The text of `row`.
    func row(_ row: Int) -> [Character] { cells[Self.clampedRow(row)] }

    /// Replaces `row` with `content`.
    mutating func setRow(_ row: Int, _ content: [Character]) {
        guard content.count == Self.columns else { return }
        cells[Self.clampedRow(row)] = content
    }

    /// What a viewer reads: the rows with text, top to bottom, each without its leading and
    /// trailing blanks, one line each.
    var text: String {
        cells.compactMap { row -> String? in
            let line = String(row).trimmingCaptionBlanks
            return line.isEmpty ? nil : line
        }.joined(separator: "\n")
    }

    static func clampedRow(_ row: Int) -> Int { min(max(row, 0), rows - 1) }
    static func clampedColumn(_ column: Int) -> Int { min(max(column, 0), columns - 1) }
}

/// A CEA-708 caption window: a grid of rows and columns that text is written into at the pen,
/// shown or hidden as a whole. Its size comes from the service's `DefineWindow` command: up to
/// 15 rows and 42 columns.
struct CEA708Window: Sendable, Equatable {
    static let maximumRows = 15
    static let maximumColumns = 42

    var visible = false
    /// Lower draws in front; windows are listed top to bottom by it.
    var priority = 0
    private(set) var rows = 1
    private(set) var columns = 32
    private(set) var penRow = 0
    private(set) var penColumn = 0
    private var cells: [[Character]] = [[Character](repeating: " ", count: 32)]

    /// Makes the window `rows` by `columns` (each clamped), keeping what fits of its text.
    mutating func resize(rows newRows: Int, columns newColumns: Int) {
        let newRows = min(max(newRows, 1), Self.maximumRows)
        let newColumns = min(max(newColumns, 1), Self.maximumColumns)
        guard newRows != rows || newColumns != columns else { return }
        cells = (0..<newRows).map { row in
            (0..<newColumns).map { column in row < rows && column < columns ? cells[row][column] : " " }
        }
        rows = newRows
        columns = newColumns
        movePen(row: penRow, column: penColumn)
    }

    /// Moves the pen (clamped into the window).
    mutating func movePen(row: Int, column: Int) {
        penRow = min(max(row, 0), rows - 1)
        penColumn = min(max(column, 0), columns - 1)
    }

    /// Writes `character` at the pen and moves it right (it stays on the last column).
    mutating func type(_ character: Character) {
        cells[penRow][penColumn] = character
        if penColumn < columns - 1 { penColumn += 1 }
    }

    /// Backspace: the pen moves left and the cell there is blanked.
    mutating func backspace() {
        guard penColumn > 0 else { return }
        penColumn -= 1
        cells[penRow][penColumn] = " "
    }

    /// Carriage return: the pen goes to the start of the next row; from the last row the text
    /// rolls up a row.
    mutating func carriageReturn() {
        if penRow < rows - 1 {
            penRow += 1
        } else {
            cells.removeFirst()
            cells.append([Character](repeating: " ", count: columns))
        }
        penColumn = 0
    }

    /// Horizontal carriage return: the pen's row is blanked and the pen goes to its start.
    mutating func clearPenRow() {
        cells[penRow] = [Character](repeating: " ", count: columns)
        penColumn = 0
    }

    /// Blanks the window (its size and place stay); form feed also moves the pen home.
    mutating func clear(movingPenHome: Bool = false) {
        cells = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        if movingPenHome { movePen(row: 0, column: 0) }
    }

    /// The rows with text, each without blanks at either end.
    var lines: [String] {
        cells.compactMap { row in
            let line = String(row).trimmingCaptionBlanks
            return line.isEmpty ? nil : line
        }
    }
}

import MediaEngineCore

/// Where the picture goes: a grid of cells from the terminal's top-left corner, and below it one
/// row for the cursor and the status line, so that what a program prints there (and the shell's
/// prompt after it) does not scroll the picture.
///
/// A cell is about twice as tall as it is wide, so its two half-block pixels are about square:
/// a grid of C x R cells shows C x 2R square pixels, and a movie fitted into them keeps its shape.
struct TerminalLayout: Sendable, Hashable {
    /// The terminal's size.
    let terminal: TerminalSize
    /// The grid's width in cells.
    let columns: Int
    /// The grid's height in cells.
    let rows: Int

    /// The layout for a terminal of `terminal`'s size: the whole width and all but the last row,
    /// or the size asked for. When `terminal` was measured, a size asked for is cut down to fit.
    /// - Parameters:
    ///   - terminal: The terminal's size.
    ///   - measured: Whether the size is the terminal's own (rather than assumed).
    ///   - columns: The width asked for, in cells, or nil for the terminal's.
    ///   - rows: The height asked for, in cells, or nil for the terminal's less one row.
    init(terminal: TerminalSize, measured: Bool, columns: Int?, rows: Int?) {
        self.terminal = terminal
        let fullRows = max(1, terminal.rows - 1)
        self.columns = measured ? min(columns ?? terminal.columns, terminal.columns) : columns ?? terminal.columns
        self.rows = measured ? min(rows ?? fullRows, fullRows) : rows ?? fullRows
    }

    /// The size of the frames that fill the grid: one pixel per column, two per row.
    var pixelSize: VideoSize { VideoSize(width: columns, height: rows * 2) }

    /// The row below the grid (from 1), where the cursor waits and the status line goes.
    var statusRow: Int { rows + 1 }

    /// Where `pixels` go: their size if it is the grid's, otherwise fitted into the grid, centred.
    /// - Parameter pixels: A frame.
    /// - Returns: The pixels to draw and the cell of their top-left corner (from 1).
    func place(_ pixels: CellPixels) -> (pixels: CellPixels, row: Int, column: Int) {
        let fitted = pixels.fitted(width: pixelSize.width, height: pixelSize.height)
        return (fitted, 1 + (rows - fitted.height / 2) / 2, 1 + (columns - fitted.width) / 2)
    }
}

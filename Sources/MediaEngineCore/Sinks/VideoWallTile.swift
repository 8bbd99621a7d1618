/// One screen of a video wall: the wall shows one picture across `columns` x `rows` screens,
/// and a player with this tile shows the part of the picture its screen has
/// (``MoviePlayer/wallTile``).
///
/// The picture is fitted to the whole wall by the player's ``MoviePlayer/scalingMode``, as if the
/// wall were one output `columns` screens wide, each screen the size of the player's output (its
/// ``MoviePlayer/viewFrame``, its sink's size, or the movie's), with ``bezelWidth`` pixels between
/// two columns and ``bezelHeight`` between two rows that no screen shows: the frames of the
/// screens. So a line that crosses two screens stays straight across the gap between them. With
/// ``ScalingMode/aspectFit`` a tile that falls wholly in the wall's bars shows the background
/// (and a two-pixel speck of the picture's nearest edge); walls normally fill.
public struct VideoWallTile: Sendable, Hashable, CustomStringConvertible {
    /// The tile's row, from 0 at the top.
    public var row: Int
    /// The tile's column, from 0 at the left.
    public var column: Int
    /// Screens down the wall, 1 to 1024.
    public var rows: Int
    /// Screens across the wall, 1 to 1024.
    public var columns: Int
    /// Pixels of the picture hidden between two columns of screens (their frames, in a screen's
    /// pixels), 0 to 65535.
    public var bezelWidth: Int
    /// Pixels of the picture hidden between two rows of screens, 0 to 65535.
    public var bezelHeight: Int

    /// A tile; values out of range are brought into it (a row past the last is the last).
    /// - Parameters:
    ///   - row: The tile's row, from 0 at the top.
    ///   - column: The tile's column, from 0 at the left.
    ///   - rows: Screens down the wall.
    ///   - columns: Screens across the wall.
    ///   - bezelWidth: Pixels hidden between two columns.
    ///   - bezelHeight: Pixels hidden between two rows.
    public init(row: Int, column: Int, rows: Int, columns: Int, bezelWidth: Int = 0, bezelHeight: Int = 0) {
        self.rows = min(max(rows, 1), 1024)
        self.columns = min(max(columns, 1), 1024)
        self.row = min(max(row, 0), self.rows - 1)
        self.column = min(max(column, 0), self.columns - 1)
        self.bezelWidth = min(max(bezelWidth, 0), 65535)
        self.bezelHeight = min(max(bezelHeight, 0), 65535)
    }

    /// `row 1, column 2 of 2x3 (bezels 10x10)`, as a wall is described.
    public var description: String {
        "row \(row), column \(column) of \(rows)x\(columns)"
            + (bezelWidth > 0 || bezelHeight > 0 ? " (bezels \(bezelWidth)x\(bezelHeight))" : "")
    }
}

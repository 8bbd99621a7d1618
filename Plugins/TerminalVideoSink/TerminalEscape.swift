/// The escape sequences the sink writes besides colours and cursor moves (ECMA-48 and DEC private
/// modes, which xterm, VTE, kitty, iTerm2, tmux and the Linux console understand).
enum TerminalEscape {
    /// Hides the cursor (DECTCEM off).
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor (DECTCEM on).
    static let showCursor = "\u{1B}[?25h"
    /// Resets colours and every other attribute (SGR 0).
    static let resetAttributes = "\u{1B}[0m"
    /// Erases from the cursor to the end of the screen (ED 0).
    static let eraseBelow = "\u{1B}[J"
    /// Erases the whole screen (ED 2); the cursor stays where it is.
    static let eraseScreen = "\u{1B}[2J"
    /// Erases from the cursor to the end of its line (EL 0).
    static let eraseLineRight = "\u{1B}[K"
    /// Moves the cursor up one row (the status row, from the row below it).
    static let cursorUp = "\u{1B}[A"
    /// Starts a synchronized update: a terminal that knows mode 2026 shows nothing of a frame
    /// until ``endSynchronizedUpdate``, so a frame never shows half old, half new. Others ignore it.
    static let beginSynchronizedUpdate = "\u{1B}[?2026h"
    /// Ends a synchronized update.
    static let endSynchronizedUpdate = "\u{1B}[?2026l"
}

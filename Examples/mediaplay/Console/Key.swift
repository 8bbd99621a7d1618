/// A key pressed on a terminal, as ``KeyDecoder`` reads it from the bytes the terminal sends.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// An arrow key's direction.
    public enum Arrow: Hashable, Sendable {
        /// Up (`ESC [ A`).
        case up
        /// Down (`ESC [ B`).
        case down
        /// Left (`ESC [ D`).
        case left
        /// Right (`ESC [ C`).
        case right
    }

    /// A printable character, space included, as typed: `a`, `A`, `+`, `é`.
    case character(Character)
    /// An arrow key, and whether Shift was held (`ESC [ 1 ; 2 C`). Other modifiers (Ctrl,
    /// Alt) are not told apart: Ctrl-Right is Right.
    case arrow(Arrow, shift: Bool)
    /// Escape on its own: no other byte followed within ``KeyDecoder/escapeTimeout``.
    case escape
    /// Return or Enter.
    case enter
    /// Tab.
    case tab
    /// Backspace (DEL or BS).
    case backspace
    /// Ctrl with a letter (`control("a")` for Ctrl-A), but for those above (Tab is Ctrl-I, Return
    /// Ctrl-M). Ctrl-C, Ctrl-Z and Ctrl-\ reach a program as signals while the terminal's ISIG
    /// setting is on, not as keys.
    case control(Character)
    /// A sequence read as one key without a name here (a function key, Home, Alt with a key, a
    /// malformed or cut sequence), with its bytes.
    case other([UInt8])

    /// The key as a person would name it: `space`, `a`, `shift-right`, `escape`, `ctrl-a`.
    public var description: String {
        switch self {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .arrow(let arrow, let shift): (shift ? "shift-" : "") + "\(arrow)"
        case .escape: "escape"
        case .enter: "enter"
        case .tab: "tab"
        case .backspace: "backspace"
        case .control(let letter): "ctrl-\(letter)"
        case .other(let bytes): "other(\(bytes.map { String($0, radix: 16) }.joined(separator: " ")))"
        }
    }
}

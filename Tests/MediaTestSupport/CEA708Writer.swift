/// CEA-708 (DTVCC) caption data as an encoder sends it, to build test captions: service
/// commands, wrapped in service blocks and caption channel packets, cut into `cc_data` triplets.
public enum CEA708Writer {
    /// One `cc_data` triplet: marker bits with `cc_valid` and `cc_type`, then two bytes.
    public typealias Triplet = (UInt8, UInt8, UInt8)

    /// DefineWindow `id` (0 to 7): `rows` by `columns`, shown at once or not, locked in size.
    public static func defineWindow(_ id: Int, rows: Int, columns: Int, visible: Bool, priority: Int = 0) -> [UInt8] {
        [
            0x98 + UInt8(id), (visible ? 0x20 : 0) | 0x18 | UInt8(priority & 7), 70, 80, 0x60 | UInt8(rows - 1),
            UInt8(columns - 1), 0x09,
        ]
    }

    /// Text in G0 and G1 (ASCII and Latin-1).
    public static func text(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    }

    /// DisplayWindows: shows the windows whose IDs (0 to 7) are in `windows`.
    public static func display(_ windows: [Int]) -> [UInt8] { [0x89, bitmap(windows)] }
    /// HideWindows: hides the windows whose IDs are in `windows`, keeping their text.
    public static func hide(_ windows: [Int]) -> [UInt8] { [0x8A, bitmap(windows)] }
    /// ClearWindows: erases the text of the windows whose IDs are in `windows`.
    public static func clear(_ windows: [Int]) -> [UInt8] { [0x88, bitmap(windows)] }
    /// DeleteWindows: removes the windows whose IDs are in `windows`, text and definition.
    public static func delete(_ windows: [Int]) -> [UInt8] { [0x8C, bitmap(windows)] }
    /// SetPenLocation in the current window.
    public static func penLocation(row: Int, column: Int) -> [UInt8] { [0x92, UInt8(row), UInt8(column)] }
    /// SetCurrentWindow.
    public static func setCurrentWindow(_ id: Int) -> [UInt8] { [0x80 + UInt8(id)] }
    /// Carriage return (CR): the pen to the start of the window's next row.
    public static let carriageReturn: [UInt8] = [0x0D]
    /// Backspace (BS): erases the character before the pen.
    public static let backspace: [UInt8] = [0x08]
    /// Form feed (FF): erases the current window and puts the pen at its first row and column.
    public static let formFeed: [UInt8] = [0x0C]

    private static func bitmap(_ windows: [Int]) -> UInt8 {
        windows.reduce(0) { $0 | UInt8(1 << $1) }
    }

    /// `data` for `service` (1 to 6) in service blocks of up to 31 bytes, in caption channel
    /// packets of up to 128 bytes (padded to an even size), as `cc_data` triplets: the first of
    /// each packet `cc_type` 3, the rest 2.
    public static func triplets(service: Int, _ data: [UInt8], sequence: Int = 0) -> [Triplet] {
        var blocks: [UInt8] = []
        var start = 0
        while start < data.count {
            let chunk = data[start..<min(start + 31, data.count)]
            blocks += [UInt8(service << 5) | UInt8(chunk.count)] + chunk
            start += chunk.count
        }
        var triplets: [Triplet] = []
        var offset = 0
        var number = sequence
        while offset < blocks.count {
            var packet = [UInt8(0)] + blocks[offset..<min(offset + 127, blocks.count)]
            offset += packet.count - 1
            if packet.count % 2 == 1 { packet.append(0) }  // a null block: the end of the packet
            packet[0] = UInt8((number & 3) << 6) | UInt8(packet.count == 128 ? 0 : packet.count / 2)
            number += 1
            for index in stride(from: 0, to: packet.count, by: 2) {
                triplets.append((index == 0 ? 0xFF : 0xFE, packet[index], packet[index + 1]))
            }
        }
        return triplets
    }
}

/// The fullscreen style's track menu: a panel under the tracks button listing the movie's audio
/// tracks and its subtitle tracks (with Off), the current ones checked. Pure geometry and text;
/// ``TrackMenuOverlay`` draws it.
struct TrackMenu: Sendable, Hashable {
    /// One line of the panel: a heading, or a track to choose.
    struct Row: Sendable, Hashable {
        /// The hit region's id (`audio-N`, `subtitle-N`, `subtitle-off`); nil for a heading.
        let id: String?
        let text: String
        let isChecked: Bool
        /// The row in the panel's pixels.
        let rect: ViewRect
    }

    let rows: [Row]
    /// The panel's size.
    let size: VideoSize
    /// The panel's distance from the output's right edge.
    let right: Int
    /// The panel's distance from the output's top.
    let top: Int
    let fontPixels: Int

    /// What a track is called in the menu: its title, else its language, else its number.
    static func name(of track: MediaTrack) -> String {
        if let title = track.title, !title.isEmpty { return title }
        if let language = track.languageCode, !language.isEmpty { return language.uppercased() }
        return "Track \(track.index + 1)"
    }

    /// The menu of `snapshot`'s tracks under the tracks button of `layout`; nil when the style has
    /// none or the menu is closed.
    init?(layout: ControlsLayout, snapshot: ControlsSnapshot) {
        guard snapshot.isTrackMenuOpen, let top = layout.topTrailing, let button = top.elements[.tracks] else {
            return nil
        }
        let rowHeight = max(18, layout.barHeight * 3 / 5)
        fontPixels = max(10, layout.barHeight * 2 / 5)
        let width = max(layout.barHeight * 5, 140)
        var rows: [Row] = []
        var y = rowHeight / 3
        func add(_ id: String?, _ text: String, checked: Bool = false) {
            rows.append(
                Row(id: id, text: text, isChecked: checked, rect: ViewRect(x: 0, y: y, width: width, height: rowHeight))
            )
            y += rowHeight
        }
        add(nil, "Audio")
        if snapshot.audioTracks.isEmpty { add(nil, "None") }
        for track in snapshot.audioTracks {
            add("audio-\(track.index)", Self.name(of: track), checked: track.index == snapshot.currentAudioTrack)
        }
        add(nil, "Subtitles")
        add("subtitle-off", "Off", checked: snapshot.currentSubtitleTrack == nil)
        for track in snapshot.subtitleTracks {
            add("subtitle-\(track.index)", Self.name(of: track), checked: track.index == snapshot.currentSubtitleTrack)
        }
        self.rows = rows
        size = VideoSize(width: width, height: y + rowHeight / 3)
        // Under the top bar, its right edge at the tracks button's.
        right = max(0, layout.viewSize.width - (top.canvas.x + button.x + button.width))
        self.top = top.canvas.y + top.canvas.height
        // A menu taller than the output below the bar would not show whole: none then.
        guard self.top + size.height <= layout.viewSize.height else { return nil }
    }

    /// The action of a click on row `id`.
    static func action(forRow id: String) -> ControlAction? {
        if id == "subtitle-off" { return .selectSubtitleTrack(nil) }
        if id.hasPrefix("audio-"), let index = Int(id.dropFirst("audio-".count)) { return .selectAudioTrack(index) }
        if id.hasPrefix("subtitle-"), let index = Int(id.dropFirst("subtitle-".count)) {
            return .selectSubtitleTrack(index)
        }
        return nil
    }
}

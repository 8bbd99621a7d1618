internal import CMediaEngineCGStreamer
internal import CMediaEnginePipeline

extension VideoOverlays {
    /// A key was pressed in the output's window: the controls show again, and the key is
    /// announced (``PlayerEvent/windowKeyPressed(_:shift:)``).
    func windowKeyPressed(_ key: String, shift: Bool) {
        noteInput()
        announce([.windowKeyPressed(key, shift: shift)])
    }

    /// Hit-tests the clicks a window output reports upstream through `scaler` (GStreamer
    /// navigation events, already in the scaler's output pixels), announces its key presses
    /// (``PlayerEvent/windowKeyPressed(_:shift:)``; those of the player's own window come from
    /// its own display connection instead), and passes on its pointer motion (the controls show
    /// again).
    func watchClicks(on scaler: Element) {
        // The probe holds the overlays (not the scaler or the bin): no reference cycle.
        me_watch_pointer(
            scaler.pointer,
            { x, y, data in
                guard let data else { return }
                Unmanaged<VideoOverlays>.fromOpaque(data).takeUnretainedValue().click(viewX: x, y: y)
            },
            { key, shift, data in
                guard let data, let key else { return }
                let overlays = Unmanaged<VideoOverlays>.fromOpaque(data).takeUnretainedValue()
                guard !overlays.ownWindowReportsKeys.withLock({ $0 }) else { return }
                overlays.windowKeyPressed(String(cString: key), shift: shift != 0)
            },
            { data in
                guard let data else { return }
                Unmanaged<VideoOverlays>.fromOpaque(data).takeUnretainedValue().noteInput()
            },
            Unmanaged.passRetained(self).toOpaque(),
            { data in
                guard let data else { return }
                Unmanaged<VideoOverlays>.fromOpaque(data).release()
            })
    }
}

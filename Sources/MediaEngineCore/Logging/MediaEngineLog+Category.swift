extension MediaEngineLog {
    /// The categories a ``MediaEngineLogHandler`` receives records in.
    public enum Category {
        /// A player's decisions: the events and actions of each input to its state machine.
        public static let player = "player"
        /// The bus messages a pipeline's bus thread reads and a player handles.
        public static let bus = "bus"
        /// Which GStreamer workarounds are on, and what decided it (once, at GStreamer's start).
        public static let workarounds = "workarounds"
        /// The engine about itself: a teardown stuck, records the log had to drop.
        public static let engine = "engine"
        /// GStreamer's debug log (``MediaEngineLog/Forwarding/gstreamer``).
        public static let gstreamer = "gstreamer"
        /// libav's messages (``MediaEngineLog/Forwarding/libav``).
        public static let libav = "libav"
    }
}

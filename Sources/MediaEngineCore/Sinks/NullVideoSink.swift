/// Discards every frame, at playback speed: `fakesink sync=true`. For audio-only use,
/// tests, and headless machines.
public struct NullVideoSink: VideoSink {
    /// Whether frames are paced by the clock (true) or discarded as fast as they decode.
    public var synchronized: Bool

    /// Creates the sink.
    /// - Parameter synchronized: Whether frames are paced by the clock.
    public init(synchronized: Bool = true) {
        self.synchronized = synchronized
    }

    /// None: frames go nowhere.
    public static var capabilities: VideoSinkCapabilities { [] }

    /// `fakesink`.
    public var requiredElements: [String] { ["fakesink"] }

    /// `fakesink sync=<synchronized>`.
    /// - Returns: The element.
    public func makeOutput() throws(MediaError) -> VideoOutput {
        .element(ElementDescription(factory: "fakesink", properties: ["sync": .bool(synchronized)]))
    }
}

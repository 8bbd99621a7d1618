internal import CMediaEngineCGStreamer
internal import CMediaEnginePipeline

/// The caption data of the frames entering a video output (`me_video_output_bin_watch_captions`:
/// the output bin's input probe, which knows each frame's stream time), handed to Swift on the
/// streaming thread.
enum ClosedCaptionWatch {
    /// What the watch saw.
    enum Event: Sendable {
        /// One frame's caption data, as GStreamer's caption type `carriage` numbers it, at the
        /// frame's position in the movie (nil when unknown).
        case captions([UInt8], carriage: Int32, time: Duration?)
        /// The video was flushed (a seek).
        case flush
        /// A new stream starts: another movie in the same pipeline (a queue's next one, the
        /// content after a pre-roll ad).
        case newStream
    }

    typealias Handler = @Sendable (Event) -> Void

    /// Holds the handler for the C side, which releases it when the probe goes.
    private final class Box: Sendable {
        let handler: Handler
        init(_ handler: @escaping Handler) { self.handler = handler }
    }

    /// Watches the frames entering `bin` (a video output bin) for as long as the bin lives.
    static func install(on bin: Element, _ handler: @escaping Handler) {
        me_video_output_bin_watch_captions(
            bin.pointer,
            { data, time, type, bytes, size in
                let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
                guard type > 0, let bytes else { return box.handler(type == 0 ? .flush : .newStream) }
                // A frame's caption data is a few dozen bytes; more is not captions.
                let captions = Array(UnsafeBufferPointer(start: bytes, count: min(Int(size), 4096)))
                let when = time >= 0 ? Duration(clockTime: GstClockTime(time)) : nil
                box.handler(.captions(captions, carriage: type, time: when))
            }, Unmanaged.passRetained(Box(handler)).toOpaque(),
            { data in Unmanaged<Box>.fromOpaque(data!).release() })
    }
}

internal import CGStreamer

#if canImport(Glibc)
    import Glibc
#endif

/// The bin a player installs as playbin's `video-sink`:
///
///     ghost sink pad -> overlaycomposition (the player's overlays) -> the output a VideoSink described
///
/// Its sink pad reports the first frame after start and after every flush ("me-first-frame"),
/// which is how the player knows it is ready for display and that a seek has landed.
final class VideoOutputBin: Sendable {
    let bin: Bin
    let overlayStage: OverlayStage
    let firstFrame: FirstFrameWatch

    /// Builds the bin for `output`.
    /// - Parameters:
    ///   - output: Where the frames go.
    ///   - overlays: What is drawn over them.
    /// - Throws: ``MediaError`` when an element is missing or a property does not fit.
    ///   - holdFirstFrame: Drop frames until the first flush (the seek to the initial playback time).
    init(output: VideoOutput, overlays: VideoOverlays, holdFirstFrame: Bool) throws(MediaError) {
        bin = try Bin.make(name: "me-video-output")
        overlayStage = try OverlayStage(overlays: overlays)
        try bin.add(overlayStage.element)
        switch output {
        case .element(let description):
            let element = try Self.makeElement(description)
            try bin.add(element)
            try overlayStage.element.link(to: element)
        case .frames(let consumer):
            let elements = try Self.makeFrameChain(for: consumer)
            try bin.addAndLink(elements)
            try overlayStage.element.link(to: elements[0])
        }
        guard let target = overlayStage.element.staticPad("sink") else {
            throw MediaError(.pipelineFailure, "overlaycomposition has no sink pad")
        }
        try bin.addGhostPad(named: "sink", target: target)
        guard let input = bin.staticPad("sink") else {
            throw MediaError(.pipelineFailure, "the video bin has no input")
        }
        firstFrame = input.watchFirstFrame(postingOn: bin, hold: holdFirstFrame)
        input.keepLoopsContinuous()
    }

    /// Makes the element an ``ElementDescription`` describes.
    static func makeElement(_ description: ElementDescription) throws(MediaError) -> Element {
        switch description.form {
        case .factory(let factory, let properties):
            let element = try Element.make(factory)
            try element.set(properties)
            return element
        case .bin(let launchLine):
            return try Bin.parse(launchLine)
        }
    }

    /// `videoconvert ! [videoscale] ! appsink caps=video/x-raw,format=F[,width,height]`.
    private static func makeFrameChain(for consumer: FrameConsumer) throws(MediaError) -> [Element] {
        let convert = try Element.make("videoconvert")
        // videoconvert is a pass-through when the decoder already produces the format asked
        // for; when it must convert, let it use every core.
        try convert.set("n-threads", .int(ProcessInfoCores.count))
        // No queue of our own: playsink's video queue already gives this chain (and the
        // conversion to packed formats) a thread apart from the decoder's (measured: one more
        // queue only costs throughput).
        var elements = [convert]
        // Packed formats are made from YUV by libyuv when each frame is delivered, much faster
        // than videoconvert; videoconvert only steps in for decoders that give something else.
        let formats = consumer.format.isPacked ? "{ I420, NV12 }" : consumer.format.gstreamerName
        var caps = "video/x-raw,format=(string)\(formats)"
        if let size = consumer.size {
            guard size.width > 0, size.height > 0 else {
                throw MediaError(.invalidArgument, "a frame size must be positive, not \(size)")
            }
            elements.append(try Element.make("videoscale"))
            caps += ",width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1"
        }
        let appsink = try Element.make("appsink")
        try appsink.set([
            "caps": .string(caps), "sync": .bool(consumer.synchronized), "enable-last-sample": false,
            "max-buffers": 2, "qos": .bool(consumer.synchronized),
        ])
        FrameDelivery(consumer: consumer).install(on: appsink)
        elements.append(appsink)
        return elements
    }
}

/// The number of cores this process may use.
enum ProcessInfoCores {
    static let count: Int = {
        #if canImport(Glibc)
            let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
            return cores > 0 ? cores : 1
        #else
            return 1
        #endif
    }()
}

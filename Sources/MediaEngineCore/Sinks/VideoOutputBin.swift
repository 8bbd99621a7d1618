internal import CMediaEngineCGStreamer
internal import CMediaEngineElements
internal import CMediaEngineGlue
internal import CMediaEnginePipeline
internal import CMediaEngineWorkarounds

#if canImport(Glibc)
    import Glibc
#endif

/// The bin a player installs as playbin's `video-sink`:
///
///     ghost sink pad -> videoconvert -> [videoflip (orientation)]
///       -> mescaler (scaling mode, output size, background; overlays) -> the output a VideoSink described
///
/// The first videoconvert passes the usual decoder formats (I420, NV12) through untouched and
/// converts the rare ones (10-bit, 4:4:4) that the stages after it do not take. The flip is linked
/// in only while the picture is turned (see ``OrientationStage``); the scaler does the scaling and
/// blends the overlays (see ``OverlayCompositor``), and is a pass-through when it has neither to
/// do. Nothing unused sits in the path of a 1080p frame.
///
/// The scaler's input reports the first frame after start and after every flush
/// ("me-first-frame", sized as shown), which is how the player knows it is ready for display and
/// that a seek has landed. The bin's input keeps running time continuous across gapless loops.
///
/// The player's seeks go upstream from the bin's input, never into the output's own sinks: an
/// output that muxes before its sink (HLS, SRT) would apply the movie's range to the muxer's
/// timeline and lose what it writes (see `outputbin.c`).
final class VideoOutputBin: Sendable {
    /// The bin's name in the pipeline (what a QoS message's source is looked up to).
    static let binName = "me-video-output"
    /// The elements after the scaler, which a swap replaces.
    struct OutputChain {
        let elements: [Element]
        /// The size the output asks frames in, if it has one (a frames sink's `size`).
        let sinkSize: VideoSize?
        /// A frames output's delivery (``FrameDelivery``), for a frame shown again.
        var delivery: FrameDelivery?
        /// Whether the output draws into a window (implements GstVideoOverlay).
        var isWindow: Bool { elements.contains { me_has_video_overlay($0.pointer) != 0 } }
    }

    let bin: Bin
    let orientation: OrientationStage
    let scaler: Element
    let firstFrame: FirstFrameWatch
    private let chain: Locked<OutputChain>
    /// The elements of outputs a swap replaced, until the player's thread removes them.
    private let replaced = Locked<[Element]>([])
    /// The frames outputs' deliveries, current and replaced, for ``closeFrameDeliveries()``.
    private let deliveries = Locked(FrameDeliveries())

    /// Weak: a replaced output's delivery goes with its appsink.
    struct FrameDeliveries {
        struct Reference {
            weak var delivery: FrameDelivery?
        }
        var references: [Reference] = []
        var closed = false

        mutating func add(_ delivery: FrameDelivery?) {
            guard let delivery else { return }
            if closed { delivery.close() }
            references.removeAll { $0.delivery == nil }
            references.append(Reference(delivery: delivery))
        }
    }
    /// The windows window sinks of this output draw in, watched for X errors until the output
    /// goes (with its pipeline, in NULL by then).
    private let windowWatches = Locked<[UInt: WindowErrorWatch]>([:])
    private let overlays: VideoOverlays
    private let overlayWatch: VideoOverlays.WatchToken

    /// Builds the bin for `output`.
    /// - Parameters:
    ///   - output: Where the frames go.
    ///   - overlays: What is drawn over them.
    ///   - presentation: Orientation, scaling mode, background and view frame.
    ///   - holdFirstFrame: Drop frames until the first flush (the seek to the initial playback time).
    /// - Throws: ``MediaError`` when an element is missing or a property does not fit.
    init(
        output: VideoOutput, overlays: VideoOverlays, presentation: VideoPresentation, holdFirstFrame: Bool
    ) throws(MediaError) {
        bin = try Bin.makeVideoOutput(name: Self.binName)
        let convert = try Element.make("videoconvert", name: "me-input-convert")
        try convert.set("n-threads", .int(ProcessInfoCores.count))
        let flip = try Element.make("videoflip", name: "me-orientation")
        scaler = try Element.make("mescaler", name: "me-scaler")
        try scaler.set("n-threads", .int(ProcessInfoCores.count))
        try bin.addAndLink([convert, scaler])
        try bin.add(flip)
        let output = try Self.makeChain(for: output)
        try bin.addAndLink(output.elements)
        try scaler.link(to: output.elements[0])
        chain = Locked(output)
        deliveries.withLock { $0.add(output.delivery) }
        guard let target = convert.staticPad("sink"), let shown = scaler.staticPad("sink") else {
            throw MediaError(.pipelineFailure, "videoconvert or mescaler has no pads")
        }
        try bin.addGhostPad(named: "sink", target: target)
        guard let input = bin.staticPad("sink") else {
            throw MediaError(.pipelineFailure, "the video bin has no input")
        }
        me_video_output_bin_watch_input(bin.pointer)
        firstFrame = shown.watchFirstFrame(postingOn: bin, hold: holdFirstFrame)
        // Frames too large to allocate are refused before the decoder allocates one (tooLarge).
        me_limit_frame_size(
            input.pointer, bin.pointer, guint(MediaLimits.maximumFrameSide), guint64(MediaLimits.maximumFramePixels))
        orientation = OrientationStage(between: convert, flip: flip, and: scaler)
        OverlayCompositor.install(on: scaler, overlays: overlays)
        overlays.watchClicks(on: scaler)
        self.overlays = overlays
        // The scaler composites only while there are overlays: without, it stays a pass-through.
        let scaler = scaler
        overlayWatch = overlays.watchEmptiness { isEmpty in
            try? scaler.set("compositing", .bool(!isEmpty))
        }
        if GStreamerWorkaround.loopRunningTime.isActive { input.keepLoopsContinuous() }
        try apply(presentation)
    }

    deinit {
        overlays.stopWatching(overlayWatch)
    }

    /// The stream time of the last frame that entered the output (nil before one did, or since a
    /// flush), whichever sink it went on to: where the movie stands by its video.
    var lastFramePosition: Duration? {
        let time = me_video_output_bin_last_stream_time(bin.pointer)
        return time >= 0 ? Duration(clockTime: GstClockTime(time)) : nil
    }

    /// Applies orientation, scaling and background, live: the next frame follows them.
    func apply(_ presentation: VideoPresentation) throws(MediaError) {
        orientation.apply(presentation.orientation)
        let (canvas, view) = presentation.scalerGeometry(for: chain.withLock { $0 })
        try scaler.set([
            "mode": .int(presentation.scalingMode.scalerMode), "background": .int(presentation.backgroundARGB),
            "from-mode": .int(presentation.scalingTransition?.from.scalerMode ?? -1),
            "progress": .int(Int(((presentation.scalingTransition?.progress ?? 1) * 1000).rounded())),
            "view-x": .int(view?.x ?? 0), "view-y": .int(view?.y ?? 0), "view-width": .int(view?.width ?? 0),
            "view-height": .int(view?.height ?? 0), "width": .int(canvas?.width ?? 0),
            "height": .int(canvas?.height ?? 0),
        ])
        let tile = presentation.wallTile ?? VideoWallTile(row: 0, column: 0, rows: 1, columns: 1)
        try scaler.set([
            "wall-columns": .int(tile.columns), "wall-rows": .int(tile.rows), "wall-column": .int(tile.column),
            "wall-row": .int(tile.row), "bezel-width": .int(tile.bezelWidth), "bezel-height": .int(tile.bezelHeight),
        ])
    }

    /// The elements for an output: the sink an element description names, or a frames chain.
    static func makeChain(for output: VideoOutput) throws(MediaError) -> OutputChain {
        switch output {
        case .element(let description, let size):
            if let size, size.width <= 0 || size.height <= 0 {
                throw MediaError(.invalidArgument, "an output size must be positive, not \(size)")
            }
            let element = try makeElement(description)
            // A sink inside that says FLUSHING outside a flush drops that frame instead of
            // stopping the stream for good (srtsink on a pause: see sinkflowguard.c).
            if GStreamerWorkaround.sinkFlowGuard.isActive { me_guard_sink_flow(element.pointer) }
            return OutputChain(elements: [element], sinkSize: size)
        case .frames(let consumer):
            if let size = consumer.size, size.width <= 0 || size.height <= 0 {
                throw MediaError(.invalidArgument, "a frame size must be positive, not \(size)")
            }
            guard (1...FrameConsumer.largestEvery).contains(consumer.every) else {
                throw MediaError(
                    .invalidArgument,
                    "a frames sink delivers every Nth frame for N from 1 to \(FrameConsumer.largestEvery), not \(consumer.every)"
                )
            }
            let delivery = FrameDelivery(consumer: consumer)
            return OutputChain(
                elements: try makeFrameChain(for: consumer, delivery: delivery), sinkSize: consumer.size,
                delivery: delivery)
        }
    }

    /// Replaces the output while the pipeline runs (see `me_swap_chain`): between two frames when
    /// playing; when paused, the old output is shut down first to free the streaming thread it
    /// holds. Posts `ME_MESSAGE_OUTPUT_SWAPPED` when the new output is linked; the player's thread
    /// then calls ``removeReplacedOutputs()``.
    func swap(to output: OutputChain, presentation: VideoPresentation, paused: Bool) {
        let old = chain.withLock { chain in
            defer { chain = output }
            return chain.elements
        }
        replaced.withLock { $0 += old }
        deliveries.withLock { $0.add(output.delivery) }
        let size = presentation.scalerGeometry(for: output).canvas
        var oldPointers = old.map { Optional($0.pointer) }
        var newPointers = output.elements.map { Optional($0.pointer) }
        me_swap_chain(
            bin.pointer, scaler.pointer, &oldPointers, guint(oldPointers.count), &newPointers,
            guint(newPointers.count), guint(size?.width ?? 0), guint(size?.height ?? 0), paused ? 1 : 0)
    }

    /// Shuts down and takes out of the bin the outputs swaps have unlinked (see
    /// `me_swap_remove_replaced`), on the player's thread, when it handles the swap's message.
    func removeReplacedOutputs() {
        let elements = replaced.withLock { replaced in
            defer { replaced.removeAll() }
            return replaced
        }
        let kept = elements.filter { me_swap_remove_replaced(bin.pointer, $0.pointer) == 0 }
        if !kept.isEmpty { replaced.withLock { $0.insert(contentsOf: kept, at: 0) } }
    }

    /// Frames outputs call their consumers no more, this one's and any a swap brings later: the
    /// player stopped. Synchronous, from any thread (the pipeline is torn down later, elsewhere).
    func closeFrameDeliveries() {
        deliveries.withLock { deliveries in
            deliveries.closed = true
            for reference in deliveries.references { reference.delivery?.close() }
        }
    }

    /// The paused frame is about to be shown again with new overlays (the controls changed): a
    /// frames output delivers it again, though it is the same frame of the movie.
    func deliverRepaintedFrame() {
        chain.withLock { $0 }.delivery?.deliverNextRepeat()
    }

    /// Whether the current output draws into a window.
    var isWindow: Bool { chain.withLock { $0.isWindow } }

    /// Watches window `handle` for X errors with `makeWatch`, unless it is watched already.
    func watchWindow(_ handle: UInt, _ makeWatch: () -> WindowErrorWatch) {
        windowWatches.withLock { watches in
            if watches[handle] == nil { watches[handle] = makeWatch() }
        }
    }

    /// Points the window sink (in `chain`, or the current output) at an X11 window and a
    /// rectangle in it (`me_video_overlay_attach`).
    func attachWindow(_ handle: UInt, rectangle: ViewRect?, chain: OutputChain? = nil) {
        let rect = rectangle ?? ViewRect(x: 0, y: 0, width: 0, height: 0)
        let elements = chain?.elements ?? self.chain.withLock { $0.elements }
        for element in elements {
            if me_video_overlay_attach(
                element.pointer, guintptr(handle), Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
                != 0
            {
                me_video_overlay_expose(element.pointer)
            }
        }
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

    /// How late a frame may reach a synchronized frames sink that drops late frames before it is
    /// dropped, in nanoseconds: 20 ms, a little more than the 5 ms of GStreamer 1.22's window
    /// sinks (`xvimagesink`, `ximagesink`), so that a frame a scheduling hiccup made late is
    /// still delivered, and well under a frame's 33 ms at 30 fps. `engine-bench --only qos`
    /// measures it against a bare playbin.
    static let frameMaximumLateness = 20_000_000

    /// `[meframeselect every=N !] videoconvert ! appsink caps=video/x-raw,format=F`: the scaler
    /// before it already gives the frames their size; the selector, when one frame in N is
    /// wanted, drops the others before anything converts them.
    private static func makeFrameChain(for consumer: FrameConsumer, delivery: FrameDelivery) throws(MediaError)
        -> [Element]
    {
        var select: [Element] = []
        if consumer.every > 1 {
            let selector = try Element.make("meframeselect")
            try selector.set("every", .int(consumer.every))
            select = [selector]
        }
        let convert = try Element.make("videoconvert")
        // videoconvert is a pass-through when the decoder already produces the format asked
        // for; when it must convert, let it use every core.
        try convert.set("n-threads", .int(ProcessInfoCores.count))
        // Packed formats are made from YUV by libyuv when each frame is delivered, much faster
        // than videoconvert; videoconvert only steps in for decoders that give something else.
        // No queue of our own: playsink's video queue already gives this chain a thread apart
        // from the decoder's (measured: one more queue only costs throughput).
        let formats = consumer.format.isPacked ? "{ I420, NV12 }" : consumer.format.gstreamerName
        let appsink = try Element.make("appsink")
        let dropsLate = consumer.synchronized && consumer.dropsLateFrames
        try appsink.set([
            "caps": .string("video/x-raw,format=(string)\(formats)"), "sync": .bool(consumer.synchronized),
            "enable-last-sample": false, "max-buffers": 2, "qos": .bool(dropsLate),
            // appsink's own default (-1) delivers every late frame, however late, while telling
            // upstream through QoS that it is late: a display's sinks drop it instead.
            "max-lateness": .int(dropsLate ? Self.frameMaximumLateness : -1),
        ])
        // Frames are read through their video meta (gst_video_frame_map), so the decoder's own
        // pictures come straight through instead of being copied into plain buffers (appsink
        // answers no allocation query of its own: videometa.c).
        if GStreamerWorkaround.appsinkVideoMeta.isActive { me_accept_video_meta(appsink.pointer) }
        delivery.install(on: appsink)
        return select + [convert, appsink]
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

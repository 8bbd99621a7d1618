internal import CMediaEngineGlue

#if canImport(Glibc)
    import Glibc
#endif

/// One thread per pipeline that blocks on the bus (no polling interval), turns each message
/// into a ``BusMessage`` and hands it to `handler`, in order.
///
/// The thread ends when it pops the stop message that ``stop()`` posts, or when the handler
/// returns `.exit`. ``stop()`` joins the thread, so once it returns no thread is left behind;
/// called from the bus thread itself (a handler that tears its pipeline down) it only asks
/// the loop to end, and the thread detaches itself.
final class BusThread: Sendable {
    enum Verdict: Sendable { case carryOn, exit }

    private let bus: Bus
    private let handle: pthread_t
    private let context: BusThreadContext

    /// Starts the thread.
    /// - Parameters:
    ///   - pipeline: The pipeline whose bus to watch; state changes of its children are dropped.
    ///   - handler: Called on the bus thread for each message, in order.
    init(pipeline: Element, handler: @escaping @Sendable (BusMessage) -> Verdict) throws(MediaError) {
        guard let bus = pipeline.bus else {
            throw MediaError(.pipelineFailure, "the pipeline has no bus", element: pipeline.name)
        }
        self.bus = bus
        let context = BusThreadContext(bus: bus, pipeline: pipeline, handler: handler)
        self.context = context
        switch NativeThread.start(counting: PlayerLifetimes.busThreads, { context.run() }) {
        case .success(let thread):
            handle = thread
        case .failure(let error):
            throw MediaError(.pipelineFailure, "cannot start the bus thread (error \(error.code))")
        }
    }

    /// Whether the caller runs on this bus thread.
    var isCurrentThread: Bool {
        pthread_equal(pthread_self(), handle) != 0
    }

    /// Ends the thread after the messages already queued, and waits for it unless called from it.
    func stop() {
        if isCurrentThread {
            context.exitRequested.store(true)
            pthread_detach(handle)
            return
        }
        bus.postApplicationMessage(ME_MESSAGE_BUS_STOP)
        pthread_join(handle, nil)
    }
}

/// What the bus thread runs; kept apart from ``BusThread`` so the thread holds no reference
/// to its owner.
private final class BusThreadContext: Sendable {
    let bus: Bus
    let pipeline: Element
    let handler: @Sendable (BusMessage) -> BusThread.Verdict
    let exitRequested = AtomicFlag()

    init(bus: Bus, pipeline: Element, handler: @escaping @Sendable (BusMessage) -> BusThread.Verdict) {
        self.bus = bus
        self.pipeline = pipeline
        self.handler = handler
    }

    func run() {
        me_name_current_thread("me-bus")
        while !exitRequested.load() {
            guard let message = bus.waitForMessage(of: BusMessage.interestingTypes) else { continue }
            guard let translated = BusMessage(message, pipeline: pipeline) else { continue }
            EngineLog.log(.trace, MediaEngineLog.Category.bus, "bus: \(translated)")
            if case .stopBusThread = translated { return }
            if handler(translated) == .exit { return }
        }
    }
}

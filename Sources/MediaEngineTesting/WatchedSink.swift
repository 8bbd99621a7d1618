import MediaEngineCore

/// A sink under test, its frames handler wrapped to record what it gets: each frame's time, and
/// whether one came out of order or while another was being handled. Generic over the sink's
/// type, so that it has that type's capabilities (a player treats it as it treats the sink).
final class WatchedSink<Wrapped: VideoSink>: VideoSink {
    /// What the wrapped handler saw.
    final class Log: Sendable {
        private struct State {
            var times: [Duration] = []
            var inside = false
            var problems: [String] = []
            var handedFrames = false
        }

        private let state = Locked(State())

        /// The frames' presentation times, in the order they came.
        var times: [Duration] { state.withLock { $0.times } }
        /// Whether the sink hands frames to Swift at all.
        var handedFrames: Bool { state.withLock { $0.handedFrames } }
        /// The first problems seen, or nil.
        var problems: String? {
            state.withLock { $0.problems.isEmpty ? nil : $0.problems.prefix(3).joined(separator: "; ") }
        }

        func outputMade(_ output: VideoOutput) {
            if case .frames = output { state.withLock { $0.handedFrames = true } }
        }

        func enter(_ time: Duration?) {
            state.withLock { state in
                if state.inside { state.problems.append("a frame came while another was being handled") }
                state.inside = true
                guard let time else { return }
                if let last = state.times.last, time < last, state.problems.count < 3 {
                    state.problems.append("a frame at \(time) came after one at \(last)")
                }
                state.times.append(time)
            }
        }

        func leave() {
            state.withLock { $0.inside = false }
        }

        /// A new pipeline: its frames start again from the movie's start.
        func restart() {
            state.withLock { $0.times = [] }
        }
    }

    let sink: Wrapped
    let log = Log()
    /// Late frames are delivered, not dropped, so that a frame missing is not the machine's load.
    let keepsLateFrames: Bool

    init(_ sink: Wrapped, keepsLateFrames: Bool = false) {
        self.sink = sink
        self.keepsLateFrames = keepsLateFrames
    }

    static var capabilities: VideoSinkCapabilities { Wrapped.capabilities }

    var requiredElements: [String] { sink.requiredElements }

    func makeOutput() throws(MediaError) -> VideoOutput {
        let output = try sink.makeOutput()
        log.outputMade(output)
        guard case .frames(var consumer) = output else { return output }
        log.restart()
        if keepsLateFrames { consumer.dropsLateFrames = false }
        let handler = consumer.handler
        let log = log
        consumer.handler = { frame in
            log.enter(frame.presentationTime)
            handler(frame)
            log.leave()
        }
        return .frames(consumer)
    }
}

import Dispatch

/// A repeating timer on a global queue: the steps of a scan's rate, and periodic time observers.
///
/// `@unchecked Sendable`: DispatchSource timers are thread-safe; `cancel()` may be called from
/// any thread and the handler runs on the timer's own queue.
final class RepeatingTimer: @unchecked Sendable {
    private let source: any DispatchSourceTimer

    /// Starts calling `tick` every `interval`, first after one interval.
    init(every interval: DispatchTimeInterval, _ tick: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + interval, repeating: interval)
        source.setEventHandler(handler: tick)
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}

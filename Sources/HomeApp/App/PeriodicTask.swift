import Dispatch

/// Runs work every `interval` seconds on a background queue until cancelled.
/// Dispatch sources are thread-safe, which the compiler cannot see: hence `@unchecked`.
final class PeriodicTask: @unchecked Sendable {
    private let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))

    init(every interval: Double, _ work: @escaping @Sendable () -> Void) {
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler(handler: work)
        timer.resume()
    }

    func cancel() { timer.cancel() }
}

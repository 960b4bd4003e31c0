import Logging
import Synchronization

/// Holds the log lines written while the server starts, so that a start-up error (a port in use,
/// a bad file) ends it with its one line alone; once it listens they are written, in order (stamped
/// with that time: start-up takes a moment).
final class StartupLog: Sendable {
    /// More held lines than this means start-up is talking a lot: they are written at once.
    static let heldLimit = 1000

    /// Lines waiting, with the handler that writes each; nil once released or discarded.
    private let held = Mutex<[(handler: any LogHandler, event: LogEvent)]?>([])
    /// Set once `held` is nil, so a line after start-up costs one load, not a lock.
    private let passing = Atomic<Bool>(false)

    /// A handler that writes through `inner` once start-up is over and holds lines until then.
    func handler(wrapping inner: any LogHandler) -> Handler { Handler(inner: inner, log: self) }

    /// Start-up went well: writes the held lines; later lines go straight through.
    func release() {
        for line in end() { line.handler.log(event: line.event) }
    }

    /// Start-up failed: drops the held lines (the error says what matters).
    func discard() { _ = end() }

    private func end() -> [(handler: any LogHandler, event: LogEvent)] {
        defer { passing.store(true, ordering: .releasing) }
        return held.withLock { held in
            defer { held = nil }
            return held ?? []
        }
    }

    /// Keeps the line if start-up is still running; false when it should be written now.
    fileprivate func hold(_ event: LogEvent, for handler: any LogHandler) -> Bool {
        guard !passing.load(ordering: .acquiring) else { return false }
        let kept = held.withLock { (held: inout [(handler: any LogHandler, event: LogEvent)]?) -> Bool in
            guard held != nil, held!.count < Self.heldLimit else { return false }
            held!.append((handler, event))
            return true
        }
        if !kept, !passing.load(ordering: .acquiring) { release() }
        return kept
    }

    /// Passes each line to `StartupLog`, which holds it or lets it through.
    struct Handler: LogHandler {
        var inner: any LogHandler
        let log: StartupLog

        func log(event: LogEvent) {
            if !log.hold(event, for: inner) { inner.log(event: event) }
        }

        var metadataProvider: Logger.MetadataProvider? {
            get { inner.metadataProvider }
            set { inner.metadataProvider = newValue }
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { inner[metadataKey: key] }
            set { inner[metadataKey: key] = newValue }
        }

        var metadata: Logger.Metadata {
            get { inner.metadata }
            set { inner.metadata = newValue }
        }

        var logLevel: Logger.Level {
            get { inner.logLevel }
            set { inner.logLevel = newValue }
        }
    }
}

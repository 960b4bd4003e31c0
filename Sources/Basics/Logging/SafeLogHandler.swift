import Logging

/// Wraps a log handler so that no request can forge, garble or flood the log: every message and
/// metadata value is escaped and cut (`LogLineSanitizer`), and lines repeating one message are
/// rate-limited (`LogRateLimiter`), the next line let through noting how many were dropped.
/// Critical lines are never dropped.
public struct SafeLogHandler: LogHandler {
    private var inner: any LogHandler
    private let limiter: LogRateLimiter

    public init(wrapping inner: any LogHandler, limiter: LogRateLimiter = LogRateLimiter()) {
        self.inner = inner
        self.limiter = limiter
    }

    public func log(event: LogEvent) {
        var event = event
        let message = LogLineSanitizer.clean(event.message.description)
        var metadata = event.metadata.map { $0.mapValues { Logger.MetadataValue.string(LogLineSanitizer.clean("\($0)")) } }
        if event.level != .critical {
            guard let dropped = limiter.admit(message) else { return }
            if dropped > 0 { metadata = (metadata ?? [:]).merging(["dropped_similar": "\(dropped)"]) { $1 } }
        }
        event.message = "\(message)"
        event.metadata = metadata
        inner.log(event: event)
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }
}

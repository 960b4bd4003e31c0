import Logging
import Synchronization

/// Keeps the messages logged through `handler`, to count what the shipper logged.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var handler: some LogHandler { Handler(capture: self) }

    var messages: [String] { lines.withLock { $0 } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.lines.withLock { $0.append("\(event.level) \(event.message)") }
        }
    }
}

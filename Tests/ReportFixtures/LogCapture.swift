import Logging
import Synchronization

/// Keeps what is logged through `handler`: each line's level and message, and its metadata.
public final class LogCapture: Sendable {
    private let lines = Mutex<[(line: String, metadata: Logger.Metadata)]>([])

    public init() {}

    public var handler: some LogHandler { Handler(capture: self) }

    /// "level message", one a line.
    public var messages: [String] { lines.withLock { $0.map(\.line) } }

    /// The metadata of each line with this message, in order.
    public func metadata(of message: String) -> [Logger.Metadata] {
        lines.withLock { $0.filter { $0.line.hasSuffix(" " + message) }.map(\.metadata) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.lines.withLock { $0.append(("\(event.level) \(event.message)", merged)) }
        }
    }
}

import Logging
import Synchronization

/// Parts started in order and shut down in reverse: the one way background work begins and ends.
public final class StartOrder: Sendable {
    private let parts: [any Startable]
    private let started = Mutex<[any Startable]>([])
    private let logger: Logger

    public init(_ parts: [any Startable], logger: Logger) {
        self.parts = parts
        self.logger = logger
    }

    /// Starts every part in order; if one fails, shuts down those already started and rethrows.
    public func start() throws {
        for part in parts {
            do {
                try part.start()
            } catch {
                logger.error("could not start \(part.name)", metadata: ["error": "\(error)"])
                shutdown()
                throw error
            }
            started.withLock { $0.append(part) }
            logger.debug("started \(part.name)")
        }
    }

    /// Shuts the started parts down, last started first. Safe to call more than once.
    public func shutdown() {
        let running = started.withLock { started in
            defer { started = [] }
            return started
        }
        for part in running.reversed() {
            part.shutdown()
            logger.debug("stopped \(part.name)")
        }
    }
}

import Logging
import Synchronization

/// Services started in order and shut down in reverse: the one way background work begins and ends.
public final class ServiceGroup: Sendable {
    private let services: [any Service]
    private let started = Mutex<[any Service]>([])
    private let logger: Logger

    public init(_ services: [any Service], logger: Logger) {
        self.services = services
        self.logger = logger
    }

    /// Starts every service in order; if one fails, shuts down those already started and rethrows.
    public func start() throws {
        for service in services {
            do {
                try service.start()
            } catch {
                logger.error("could not start \(service.name)", metadata: ["error": "\(error)"])
                shutdown()
                throw error
            }
            started.withLock { $0.append(service) }
            logger.debug("started \(service.name)")
        }
    }

    /// Shuts the started services down, last started first. Safe to call more than once.
    public func shutdown() {
        let running = started.withLock { started in
            defer { started = [] }
            return started
        }
        for service in running.reversed() {
            service.shutdown()
            logger.debug("stopped \(service.name)")
        }
    }
}

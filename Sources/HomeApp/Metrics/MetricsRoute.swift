import MicroHTTP
import Synchronization

/// `GET /metrics`, under the report pages' access rule, rendered on the report workers. The
/// server's own counters come from the `Server` attached after it is made (it is made from this
/// app's router, so it cannot be given at init).
final class MetricsRoute: Sendable {
    private let source = Mutex<(@Sendable () -> (ServerMetrics.Snapshot, Int))?>(nil)
    private let versions = Mutex<(toggles: ToggleVersions, content: ContentVersions)?>(nil)

    /// The versions in force, numbered as /admin numbers them, and whether the report database answers.
    func attach(_ toggles: ToggleVersions, _ content: ContentVersions) { versions.withLock { $0 = (toggles, content) } }

    func attach(_ server: Server) {
        source.withLock { $0 = { [weak server] in (server?.metrics() ?? .init(), server?.requestsInFlight ?? 0) } }
    }

    /// Registered inside the report pages' access group.
    func register(in router: inout Router, services: AppServices, pool: RequestPool) {
        router.get("/metrics") { [self] _ in
            try pool.respond { [self] in
                let server = source.withLock { $0 }?()
                let versions = versions.withLock { $0 }
                let text = MetricsPage(services: services, server: server?.0, requestsInFlight: server?.1,
                                       toggleVersions: versions?.toggles, contentVersions: versions?.content).render()
                return Response(headers: Headers([("Content-Type", "text/plain; version=0.0.4; charset=utf-8"),
                                                  ("Cache-Control", "no-store")]),
                                body: .bytes(Array(text.utf8)))
            }
        }
    }
}

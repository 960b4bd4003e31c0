import Basics
import CMicroHTTPD
import Glibc
import Logging
import Synchronization

/// An HTTP server: libmicrohttpd's thread pool with epoll, answering through a `Router`.
public final class Server: Startable {
    public let name = "HTTP server"
    private struct Running {
        let daemon: OpaquePointer
        let core: Unmanaged<ServerCore>
        let port: UInt16
    }

    private let core: ServerCore
    private let running = Mutex<Running?>(nil)

    public init(configuration: ServerConfiguration, router: Router,
                logger: Logger = Logger(label: "MicroHTTP")) {
        core = ServerCore(router: router, configuration: configuration, logger: logger)
    }

    /// The bound port (the ephemeral one when configured with 0); nil before `start`.
    public var port: UInt16? { running.withLock { $0?.port } }

    /// Connections closed because they took longer than the connection timeout to send a request head.
    public var lateHeadsClosed: Int { core.headDeadlines.closedCount.load(ordering: .relaxed) }

    /// Requests by route and status, latency, bytes, open connections and streams, for `/metrics`.
    public func metrics() -> ServerMetrics.Snapshot {
        var snapshot = core.metrics.snapshot()
        snapshot.openStreams = core.openStreams.count
        return snapshot
    }

    /// Idle keep-alive connections closed because the open connections neared the limit.
    public var idleConnectionsReclaimed: Int { core.headDeadlines.reclaimedCount.load(ordering: .relaxed) }

    /// Requests that have started and not yet completed.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Requests waiting for a `Response.deferred` answer.
    public var deferredResponsesOwed: Int { core.owed.count }

    public func start() throws(ServerError) {
        try running.withLock { (state: inout Running?) throws(ServerError) in
            guard state == nil else { throw .alreadyStarted }
            let configuration = core.configuration
            let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port)
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
                | MHD_USE_ITC.rawValue | MHD_USE_TURBO.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
                | MHD_USE_ERROR_LOG.rawValue
            if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
            let connectionLimit = DescriptorBudget.connections(wanted: configuration.connectionLimit)
            if connectionLimit < configuration.connectionLimit {
                core.logger.warning("connection limit lowered to fit the descriptor limit", metadata: [
                    "wanted": "\(configuration.connectionLimit)", "limit": "\(connectionLimit)"])
            }
            let retained = Unmanaged.passRetained(core)
            // libmicrohttpd's idle timeout closes without a word: set a second past the deadlines,
            // the sweeper meets a silent client first and can answer a late body 408.
            let timeout = configuration.connectionTimeout == 0 ? 0 : configuration.connectionTimeout + 1
            var options = dh_daemon_options(
                flags: flags, listen_socket: socket.descriptor,
                handler: accessHandlerCallback, completed: requestCompletedCallback, uri_log: uriLogCallback,
                notify_connection: connectionNotifyCallback, accept_policy: acceptPolicyCallback, logger: libraryLogCallback,
                context: retained.toOpaque(), thread_pool_size: UInt32(max(1, configuration.threads)),
                connection_timeout_seconds: timeout,
                connection_limit: connectionLimit,
                per_ip_connection_limit: configuration.perIPConnectionLimit,
                connection_memory_limit: configuration.connectionMemoryLimit)
            guard let daemon = dh_start_daemon(&options) else {
                close(socket.descriptor)
                retained.release()
                throw .daemonFailed
            }
            core.headDeadlines.start()
            state = Running(daemon: daemon, core: retained, port: socket.port)
        }
    }

    /// Stops accepting, lets requests in flight finish (up to the grace period), stops the
    /// daemon and releases everything handed to C. Safe to call more than once.
    public func shutdown() {
        guard let state = running.withLock({ state -> Running? in defer { state = nil }; return state }) else {
            return
        }
        // Not MHD_quiesce_daemon: in 0.9.75 it races a busy epoll worker taking the listening
        // socket out of the same epoll set, and the loser aborts the process ("Failed to remove
        // listen FD from epoll set"). New connections are closed by the accept policy instead.
        core.accepting.store(false, ordering: .sequentiallyConsistent)
        // Suspended streams would outlive the daemon: end them so their connections resume and close.
        core.openStreams.finishAll()
        let clock = ContinuousClock()
        let deadline = clock.now + core.configuration.shutdownGracePeriod
        // Deferred responses under way get the grace period to arrive (an event being written, say).
        while core.inFlight.load(ordering: .sequentiallyConsistent) > 0, clock.now < deadline {
            let left = (deadline - clock.now).components
            core.drained.wait(seconds: max(0, Double(left.seconds) + Double(left.attoseconds) / 1e18))
        }
        // Those still owed get 503: libmicrohttpd must not be stopped with a connection suspended.
        core.respondToOwed()
        let sent = clock.now + .seconds(1)
        let last = max(deadline, sent)
        while core.inFlight.load(ordering: .sequentiallyConsistent) > 0, clock.now < last {
            let left = (last - clock.now).components
            core.drained.wait(seconds: max(0, Double(left.seconds) + Double(left.attoseconds) / 1e18))
        }
        let unfinished = core.inFlight.load(ordering: .relaxed)
        if unfinished > 0 {
            core.logger.warning("shutdown grace period over", metadata: ["unfinished": "\(unfinished)"])
        }
        core.headDeadlines.stop()
        MHD_stop_daemon(state.daemon)
        state.core.release()
    }

    deinit { shutdown() }
}

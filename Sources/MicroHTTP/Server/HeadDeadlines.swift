import CMicroHTTPD
import Glibc
import Logging
import Synchronization

/// Closes a connection that takes longer than the connection timeout to send a request head.
///
/// libmicrohttpd's timeout counts idle time, and every byte received resets it: a client that
/// sends one header byte a second holds its connection, and a slot of the connection limit, for
/// as long as it likes. Each connection gets a deadline when it opens and again after each
/// answer; the head arriving (the access handler's first call) clears it. A sweeper thread shuts
/// down the socket of a connection past its deadline; libmicrohttpd reads end-of-file and closes it.
final class HeadDeadlines: Sendable {
    private struct Entry {
        let descriptor: Int32
        var deadline: ContinuousClock.Instant?
    }

    private let limit: Duration
    private let logger: Logger
    private let entries = Mutex<[Int: Entry]>([:])
    private let stopping = Atomic<Bool>(false)
    private let sweeper = Mutex<pthread_t?>(nil)
    /// Connections closed because their head was late.
    let closedCount = Atomic<Int>(0)

    /// `seconds` of 0 turns the deadlines off, as it turns off libmicrohttpd's timeout.
    init(seconds: UInt32, logger: Logger) {
        limit = .seconds(seconds)
        self.logger = logger
    }

    private var isEnabled: Bool { limit > .zero }

    func opened(_ connection: OpaquePointer) {
        guard isEnabled else { return }
        let entry = Entry(descriptor: dh_connection_fd(connection), deadline: .now + limit)
        entries.withLock { $0[Int(bitPattern: connection)] = entry }
    }

    func headArrived(_ connection: OpaquePointer) {
        guard isEnabled else { return }
        entries.withLock { $0[Int(bitPattern: connection)]?.deadline = nil }
    }

    func answered(_ connection: OpaquePointer) {
        guard isEnabled else { return }
        let deadline = ContinuousClock.now + limit
        entries.withLock { $0[Int(bitPattern: connection)]?.deadline = deadline }
    }

    /// libmicrohttpd reports the close before it closes the descriptor, so the sweeper, holding
    /// the same lock, never shuts down a descriptor that was already reused.
    func closed(_ connection: OpaquePointer) {
        guard isEnabled else { return }
        _ = entries.withLock { $0.removeValue(forKey: Int(bitPattern: connection)) }
    }

    func start() {
        guard isEnabled else { return }
        stopping.store(false, ordering: .relaxed)
        var handle = pthread_t()
        let retained = Unmanaged.passRetained(self)
        guard pthread_create(&handle, nil, { raw in
            Unmanaged<HeadDeadlines>.fromOpaque(raw!).takeRetainedValue().sweep()
            return nil
        }, retained.toOpaque()) == 0 else {
            retained.release()
            logger.error("could not start the request-head sweeper")
            return
        }
        sweeper.withLock { $0 = handle }
    }

    func stop() {
        guard let handle = sweeper.withLock({ handle -> pthread_t? in defer { handle = nil }; return handle }) else {
            return
        }
        stopping.store(true, ordering: .relaxed)
        pthread_join(handle, nil)
    }

    private func sweep() {
        while !stopping.load(ordering: .relaxed) {
            usleep(250_000)
            let now = ContinuousClock.now
            let late = entries.withLock { entries in
                var late = 0
                for (key, entry) in entries {
                    guard let deadline = entry.deadline, deadline <= now else { continue }
                    shutdown(entry.descriptor, Int32(SHUT_RDWR))
                    entries[key]?.deadline = nil
                    late += 1
                }
                return late
            }
            if late > 0 {
                closedCount.add(late, ordering: .relaxed)
                // Idle keep-alive connections count too: they also sent no head within the timeout.
                logger.info("closed connections without a complete request head in time", metadata: ["count": "\(late)"])
            }
        }
    }
}

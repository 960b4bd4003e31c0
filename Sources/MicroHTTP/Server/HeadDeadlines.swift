import Basics
import CMicroHTTPD
import Glibc
import Logging
import Synchronization

/// Closes a connection that takes longer than the connection timeout to send a request head,
/// or then its body.
///
/// libmicrohttpd's timeout counts idle time, and every byte received resets it: a client that
/// sends one header byte a second, or a body byte every two, holds its connection, and a slot of
/// the connection limit, for as long as it likes. Each connection gets a deadline when it opens
/// and again after each response; the head arriving (the access handler's first call) starts a
/// new one for the body, and the whole request having arrived clears it. A sweeper thread shuts
/// down the socket of a connection past its deadline; libmicrohttpd reads end-of-file and closes it.
///
/// When the open connections near the limit, the sweeper also closes the keep-alive ones idle
/// between requests (a client reopens at no cost), so they cannot hold every slot either.
///
/// The deadline lives in the connection's libmicrohttpd socket context (`OpenConnection`), so the
/// per-request updates are single atomic stores; the lock guards only the set of open connections.
final class HeadDeadlines: Sendable {
    private let limit: Int64
    private let logger: Logger
    private let connections = Mutex<[ObjectIdentifier: ConnectionDeadline]>([:])
    /// Made by `start`, dropped by `stop`: its work holds this object until then. Sweeps every
    /// quarter second while a connection is open; sleeps while none is.
    private let sweeper = Mutex<PeriodicTask?>(nil)
    /// Connections closed because their head (or body) was late.
    let closedCount = Atomic<Int>(0)
    /// Idle keep-alive connections closed to make room.
    let reclaimedCount = Atomic<Int>(0)
    /// Past this many open connections, idle keep-alive ones are closed.
    private let reclaimAbove: Int
    /// Run on every sweep (a quarter second), on the sweeper thread.
    private let onSweep: @Sendable () -> Void
    /// The 408 a body that came too slowly gets before its connection closes.
    private let lateBody: Response?
    /// How long a client has to read that 408 before the connection closes: closed at once, the
    /// body bytes still arriving would make the kernel reset it, and the answer with it.
    static let lingering: Int64 = 2_000_000_000

    /// `seconds` of 0 turns the deadlines off, as it turns off libmicrohttpd's timeout.
    init(seconds: UInt32, connectionLimit: UInt32 = 1024, logger: Logger, lateBody: Response? = nil,
         onSweep: @escaping @Sendable () -> Void = {}) {
        limit = Int64(seconds) * 1_000_000_000
        reclaimAbove = Int(connectionLimit) * 3 / 4
        self.logger = logger
        self.lateBody = lateBody
        self.onSweep = onSweep
    }

    private var isEnabled: Bool { limit > 0 }

    /// The new connection's deadline, for its `OpenConnection` until `closed`; nil while deadlines are off.
    func opened(_ connection: OpaquePointer) -> ConnectionDeadline? {
        guard isEnabled else { return nil }
        let entry = ConnectionDeadline(descriptor: dh_connection_fd(connection), deadline: Self.now() + limit)
        connections.withLock { $0[ObjectIdentifier(entry)] = entry }
        sweeper.withLock { $0 }?.wake()
        return entry
    }

    /// The head is in: the body, if any, gets one more timeout to arrive, however it trickles.
    func headArrived(_ entry: ConnectionDeadline?) {
        guard let entry else { return }
        entry.idle.store(false, ordering: .relaxed)
        entry.deadline.store(Self.now() + limit, ordering: .relaxed)
    }

    /// The whole request is in: answering (a stream may take hours) has no deadline.
    func requestArrived(_ entry: ConnectionDeadline?) {
        entry?.deadline.store(0, ordering: .relaxed)
    }

    /// The head announced a body: until it is in, a late one is answered 408.
    func bodyExpected(_ entry: ConnectionDeadline?) {
        entry?.awaitingBody.store(true, ordering: .relaxed)
    }

    /// The body is in. False when the sweeper answered 408 first: the request is not answered again.
    func bodyArrived(_ entry: ConnectionDeadline?) -> Bool {
        guard let entry else { return true }
        return entry.awaitingBody.exchange(false, ordering: .relaxed)
    }

    func answered(_ entry: ConnectionDeadline?) {
        guard let entry else { return }
        entry.deadline.store(Self.now() + limit, ordering: .relaxed)
        entry.idle.store(true, ordering: .relaxed)
        // A request answered before its body (refused by its head) leaves none to wait for.
        entry.awaitingBody.store(false, ordering: .relaxed)
    }

    /// libmicrohttpd reports the close before it closes the descriptor, so the sweeper, holding
    /// the same lock, never shuts down a descriptor that was already reused.
    func closed(_ entry: ConnectionDeadline) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(entry)) }
    }

    private static func now() -> Int64 { CoarseClock.nanoseconds }

    /// Sweeps every quarter second until `stop`, while a connection is open. Runs without
    /// deadlines too (a timeout of 0), then always: the sweep also ends streams whose client left.
    func start() {
        let task = PeriodicTask(name: "head sweeper", every: 0.25, idle: { [self] in isEnabled && connections.withLock { $0.isEmpty } }) {
            [self] in sweep()
        }
        do {
            try task.start()
        } catch {
            logger.error("could not start the request-head sweeper", metadata: ["error": "\(error)"])
            return
        }
        sweeper.withLock { $0 = task }
    }

    /// Stops the sweeper at once, or after the sweep in progress.
    func stop() {
        sweeper.withLock { sweeper in defer { sweeper = nil }; return sweeper }?.shutdown()
    }

    private func sweep() {
        onSweep()
        let now = Self.now()
        let (late, reclaimed) = connections.withLock { connections in
            var late = 0, reclaimed = 0
            let crowded = connections.count > reclaimAbove
            for entry in connections.values {
                let deadline = entry.deadline.load(ordering: .relaxed)
                let isLate = deadline <= now
                guard deadline != 0, isLate || (crowded && entry.idle.load(ordering: .relaxed)),
                      entry.deadline.compareExchange(expected: deadline, desired: 0, ordering: .relaxed).exchanged
                else { continue }
                // Counted before the client can see the close.
                if isLate { closedCount.add(1, ordering: .relaxed); late += 1 } else {
                    reclaimedCount.add(1, ordering: .relaxed); reclaimed += 1
                }
                if isLate, let lateBody, entry.awaitingBody.exchange(false, ordering: .relaxed) {
                    // Told why, then closed after the lingering time (the next sweep past it).
                    _ = DirectResponse.send(lateBody, id: "-", on: entry.descriptor)
                    entry.deadline.store(now + Self.lingering, ordering: .relaxed)
                    continue
                }
                shutdown(entry.descriptor, Int32(SHUT_RDWR))
            }
            return (late, reclaimed)
        }
        if reclaimed > 0 {
            logger.info("closed idle keep-alive connections to make room", metadata: ["count": "\(reclaimed)"])
        }
        if late > 0 {
            // Idle keep-alive connections count too: they also sent no head within the timeout.
            logger.info("closed connections without a complete request in time", metadata: ["count": "\(late)"])
        }
    }
}

/// When one connection's next request head is due (monotonic nanoseconds); 0 while none is.
final class ConnectionDeadline: Sendable {
    let descriptor: Int32
    let deadline: Atomic<Int64>
    /// Between a response and the next request's head: a keep-alive connection that may be reclaimed.
    let idle = Atomic<Bool>(false)
    /// Between a head that announced a body and that body's end; the sweeper takes it to answer 408.
    let awaitingBody = Atomic<Bool>(false)

    init(descriptor: Int32, deadline: Int64) {
        self.descriptor = descriptor
        self.deadline = Atomic(deadline)
    }
}

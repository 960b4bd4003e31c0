import Basics
import Glibc
import Synchronization

/// Slows guessing of the report token: per client address, the first few wrong tokens are free,
/// then each further one locks the address out for twice as long as the last (2 s up to 5 min).
/// A locked-out address is refused before its token is even compared. Waiting on the server
/// would hold a worker thread, so the slowing is a refusal with `Retry-After`, not a sleep.
final class SignInThrottle: Sendable {
    struct Entry {
        var failures: Int
        var lockedUntil: Int64
        var lastFailure: Int64
    }

    static let freeFailures = 5
    static let longestLockout: Int64 = 300
    /// Failures are forgotten this long after an address's last one.
    static let memory: Int64 = 15 * 60
    /// Addresses remembered at most; past it, the one with the oldest failure is forgotten.
    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])
    private let clock: @Sendable () -> Int64

    init(capacity: Int = 10_000, clock: @escaping @Sendable () -> Int64 = SignInThrottle.seconds) {
        self.capacity = capacity
        self.clock = clock
    }

    /// What failures are counted under: the address, or for IPv6 its /64, which one client
    /// usually holds whole (counting each address of it would give it 2^64 fresh starts).
    static func key(for address: String) -> String {
        var bytes = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        return withUnsafeBytes(of: bytes) { raw in raw.prefix(8).map { String($0, radix: 16) }.joined(separator: ".") } + "/64"
    }

    /// Seconds until `address` may try again; nil when it may now.
    func lockout(for client: String) -> Int64? {
        let address = Self.key(for: client)
        let now = clock()
        return entries.withLock { entries in
            guard let entry = entries[address], entry.lockedUntil > now else { return nil }
            return entry.lockedUntil - now
        }
    }

    /// Notes a wrong token from `address`; returns its failures in a row, for the log.
    @discardableResult
    func failed(from client: String) -> Int {
        let address = Self.key(for: client)
        let now = clock()
        return entries.withLock { entries in
            var entry = entries[address].flatMap { now - $0.lastFailure < Self.memory ? $0 : nil }
                ?? Entry(failures: 0, lockedUntil: 0, lastFailure: now)
            entry.failures += 1
            entry.lastFailure = now
            if entry.failures > Self.freeFailures {
                let doubling = min(entry.failures - Self.freeFailures, 9)
                entry.lockedUntil = now + min(Int64(1) << doubling, Self.longestLockout)
            }
            if entries[address] == nil, entries.count >= capacity { Self.evict(&entries, now: now) }
            entries[address] = entry
            return entry.failures
        }
    }

    /// The right token: the address starts over.
    func succeeded(from client: String) {
        _ = entries.withLock { $0.removeValue(forKey: Self.key(for: client)) }
    }

    private static func evict(_ entries: inout [String: Entry], now: Int64) {
        entries = entries.filter { now - $0.value.lastFailure < memory }
        if entries.count >= 1, let oldest = entries.min(by: { $0.value.lastFailure < $1.value.lastFailure }) {
            entries.removeValue(forKey: oldest.key)
        }
    }

    static func seconds() -> Int64 { CoarseClock.nanoseconds / 1_000_000_000 }
}

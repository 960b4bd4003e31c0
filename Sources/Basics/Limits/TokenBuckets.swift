import Synchronization

/// Token buckets by key (a visitor, a client address, a log message): each holds up to `burst`
/// tokens and gains `rate` a second; a take uses one. The table is bounded: past `maxKeys`,
/// buckets that have refilled (idle long enough to be as good as new) are forgotten, and if none
/// has, all are.
/// Every page that writes an event takes twice (client address, visitor), so a take is cheap:
/// inlinable, as left generic across the module it looked up the table's type metadata each
/// time (some 5,000 instructions a home request), and a noncopyable struct kept in its owner,
/// as a class it was retained and released around each take.
public struct TokenBuckets<Key: Hashable & Sendable>: ~Copyable, Sendable {
    /// What one take gets.
    public enum Decision: Equatable, Sendable {
        /// `refusedBefore`: the takes this key was refused since its last allowed one.
        case allowed(refusedBefore: Int)
        /// `retryAfter`: whole seconds until a token is back.
        case limited(retryAfter: Int)

        public var isAllowed: Bool {
            if case .allowed = self { return true }
            return false
        }
    }

    @usableFromInline
    struct Bucket: Sendable {
        @usableFromInline var tokens: Double
        @usableFromInline var updated: Double
        @usableFromInline var refused = 0

        @inlinable
        init(tokens: Double, updated: Double) {
            self.tokens = tokens
            self.updated = updated
        }
    }

    public let rate: Double
    public let burst: Double
    public let maxKeys: Int
    @usableFromInline let buckets = Mutex<[Key: Bucket]>([:])

    public init(rate: Double, burst: Int, maxKeys: Int = 100_000) {
        self.rate = rate
        self.burst = Double(max(1, burst))
        self.maxKeys = max(1, maxKeys)
    }

    /// Takes a token for `key` at `now` (monotonic seconds).
    @inlinable
    public func take(_ key: Key, now: Double) -> Decision {
        buckets.withLock { buckets in
            // One hash of the key for a known one: its bucket is changed where it lies.
            if let index = buckets.index(forKey: key) { return take(&buckets.values[index], now: now) }
            if buckets.count >= maxKeys { forgetIdle(&buckets, now: now) }
            var bucket = Bucket(tokens: burst, updated: now)
            let decision = take(&bucket, now: now)
            buckets[key] = bucket
            return decision
        }
    }

    public var count: Int { buckets.withLock { $0.count } }

    @inlinable
    func take(_ bucket: inout Bucket, now: Double) -> Decision {
        bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * rate)
        bucket.updated = now
        guard bucket.tokens >= 1 else {
            bucket.refused += 1
            return .limited(retryAfter: max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))))
        }
        bucket.tokens -= 1
        defer { bucket.refused = 0 }
        return .allowed(refusedBefore: bucket.refused)
    }

    @usableFromInline
    func forgetIdle(_ buckets: inout [Key: Bucket], now: Double) {
        let full = burst / rate
        buckets = buckets.filter { now - $0.value.updated < full }
        if buckets.count >= maxKeys { buckets.removeAll(keepingCapacity: true) }
    }
}

import Synchronization

/// Token buckets by key (a visitor, a client address, a log message): each holds up to `burst`
/// tokens and gains `rate` a second; a take uses one. The table is bounded: past `maxKeys`,
/// buckets that have refilled (idle long enough to be as good as new) are forgotten, and if none
/// has, all are.
public final class TokenBuckets<Key: Hashable & Sendable>: Sendable {
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

    private struct Bucket {
        var tokens: Double
        var updated: Double
        var refused = 0
    }

    public let rate: Double
    public let burst: Double
    public let maxKeys: Int
    private let buckets = Mutex<[Key: Bucket]>([:])

    public init(rate: Double, burst: Int, maxKeys: Int = 100_000) {
        self.rate = rate
        self.burst = Double(max(1, burst))
        self.maxKeys = max(1, maxKeys)
    }

    /// Takes a token for `key` at `now` (monotonic seconds).
    public func take(_ key: Key, now: Double) -> Decision {
        buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= maxKeys { forgetIdle(&buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else {
                bucket.refused += 1
                return .limited(retryAfter: max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))))
            }
            bucket.tokens -= 1
            defer { bucket.refused = 0 }
            return .allowed(refusedBefore: bucket.refused)
        }
    }

    public var count: Int { buckets.withLock { $0.count } }

    private func forgetIdle(_ buckets: inout [Key: Bucket], now: Double) {
        let full = burst / rate
        buckets = buckets.filter { now - $0.value.updated < full }
        if buckets.count >= maxKeys { buckets.removeAll(keepingCapacity: true) }
    }
}

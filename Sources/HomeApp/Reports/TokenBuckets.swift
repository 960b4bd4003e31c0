import Synchronization

/// Token buckets by key (a visitor, a client address): each holds up to `burst` tokens and gains
/// `rate` a second; a request takes one. The table is bounded: past `maxKeys`, buckets that have
/// refilled (idle long enough to be as good as new) are forgotten, and if none has, all are.
final class TokenBuckets<Key: Hashable & Sendable>: Sendable {
    /// What one request gets.
    enum Decision: Equatable {
        case allowed
        /// `retryAfter`: whole seconds until a token is back. `logLimited`: the requests this key
        /// was refused since its last log line, when a new line is due (nil: stay quiet).
        case limited(retryAfter: Int, logLimited: Int?)
    }

    private struct Bucket {
        var tokens: Double
        var updated: Double
        var refusedSinceLog = 0
        var loggedAt: Double?
    }

    let rate: Double
    let burst: Double
    /// At most one log line per key this often, in seconds.
    let logInterval: Double
    let maxKeys: Int
    private let buckets = Mutex<[Key: Bucket]>([:])

    init(rate: Double, burst: Int, logInterval: Double = 60, maxKeys: Int = 100_000) {
        self.rate = rate
        self.burst = Double(max(1, burst))
        self.logInterval = logInterval
        self.maxKeys = max(1, maxKeys)
    }

    /// Takes a token for `key` at `now` (monotonic seconds).
    func take(_ key: Key, now: Double) -> Decision {
        buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= maxKeys { forgetIdle(&buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return .allowed
            }
            bucket.refusedSinceLog += 1
            let retryAfter = max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
            guard bucket.loggedAt.map({ now - $0 >= logInterval }) ?? true else {
                return .limited(retryAfter: retryAfter, logLimited: nil)
            }
            defer { bucket.refusedSinceLog = 0; bucket.loggedAt = now }
            return .limited(retryAfter: retryAfter, logLimited: bucket.refusedSinceLog)
        }
    }

    var count: Int { buckets.withLock { $0.count } }

    private func forgetIdle(_ buckets: inout [Key: Bucket], now: Double) {
        let full = burst / rate
        buckets = buckets.filter { now - $0.value.updated < full }
        if buckets.count >= maxKeys { buckets.removeAll(keepingCapacity: true) }
    }
}

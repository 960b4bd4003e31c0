import Glibc
import Synchronization

/// Lets through at most a burst and then a steady rate of lines with the same message: a flood
/// of bad requests would otherwise write as fast as it is sent (each 404 logs a line). Counts
/// what it held back so the next line let through can say so.
public final class LogRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Int64
        var suppressed: Int
    }

    public let burst: Double
    public let perSecond: Double
    /// Distinct messages tracked; past it the table starts over (messages are few and fixed).
    private let maximumKeys = 512
    private let buckets = Mutex<[String: Bucket]>([:])

    public init(burst: Int = 20, perSecond: Double = 5) {
        self.burst = Double(burst)
        self.perSecond = perSecond
    }

    /// nil when the line must be dropped; otherwise how many like it were dropped before it.
    public func admit(_ key: String, now: Int64 = LogRateLimiter.now()) -> Int? {
        buckets.withLock { buckets in
            if buckets.count >= maximumKeys, buckets[key] == nil { buckets.removeAll(keepingCapacity: true) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now, suppressed: 0)
            bucket.tokens = min(burst, bucket.tokens + Double(now - bucket.updated) / 1e9 * perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else {
                bucket.suppressed += 1
                return nil
            }
            bucket.tokens -= 1
            defer { bucket.suppressed = 0 }
            return bucket.suppressed
        }
    }

    /// Monotonic nanoseconds, coarse: a rate of lines a second needs no finer clock.
    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

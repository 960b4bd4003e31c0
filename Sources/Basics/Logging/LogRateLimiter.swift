/// Lets through at most a burst and then a steady rate of lines with the same message: a flood
/// of bad requests would otherwise write as fast as it is sent (each 404 logs a line). Counts
/// what it held back so the next line let through can say so.
public final class LogRateLimiter: Sendable {
    public let burst: Double
    public let perSecond: Double
    /// By message; messages are few and fixed, so a small table.
    private let buckets: TokenBuckets<String>

    public init(burst: Int = 20, perSecond: Double = 5) {
        self.burst = Double(burst)
        self.perSecond = perSecond
        buckets = TokenBuckets(rate: perSecond, burst: burst, maxKeys: 512)
    }

    /// nil when the line must be dropped; otherwise how many like it were dropped before it.
    public func admit(_ key: String, now: Int64 = LogRateLimiter.now()) -> Int? {
        guard case .allowed(let dropped) = buckets.take(key, now: Double(now) / 1e9) else { return nil }
        return dropped
    }

    /// Monotonic nanoseconds, coarse: a rate of lines a second needs no finer clock.
    public static func now() -> Int64 { CoarseClock.nanoseconds }
}

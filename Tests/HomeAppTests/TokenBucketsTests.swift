import Testing
@testable import HomeApp

/// The token buckets behind the report rate limit, on a clock the test moves by hand.
@Suite struct TokenBucketsTests {
    @Test func aBurstIsAllowedThenTheRateRefillsIt() {
        let buckets = TokenBuckets<String>(rate: 2, burst: 3)
        for _ in 0..<3 { #expect(buckets.take("a", now: 100) == .allowed) }
        #expect(buckets.take("a", now: 100) == .limited(retryAfter: 1, logLimited: 1))
        #expect(buckets.take("b", now: 100) == .allowed, "another key has its own bucket")
        #expect(buckets.take("a", now: 100.5) == .allowed, "half a second at 2/s is one token")
        #expect(buckets.take("a", now: 100.5) == .limited(retryAfter: 1, logLimited: nil))
        #expect(buckets.take("a", now: 200) == .allowed)
        #expect(buckets.take("a", now: 200) == .allowed)
        #expect(buckets.take("a", now: 200) == .allowed)
        #expect(buckets.take("a", now: 200) != .allowed, "refilled to the burst, never past it")
    }

    @Test func retryAfterSaysWhenATokenIsBack() {
        let buckets = TokenBuckets<String>(rate: 0.1, burst: 1)
        #expect(buckets.take("a", now: 0) == .allowed)
        #expect(buckets.take("a", now: 0) == .limited(retryAfter: 10, logLimited: 1))
        #expect(buckets.take("a", now: 4) == .limited(retryAfter: 6, logLimited: nil))
    }

    @Test func aLimitedKeyIsLoggedOncePerIntervalWithWhatItWasRefused() {
        let buckets = TokenBuckets<String>(rate: 0.001, burst: 1, logInterval: 60)
        #expect(buckets.take("a", now: 0) == .allowed)
        #expect(buckets.take("a", now: 1) == .limited(retryAfter: 999, logLimited: 1))
        for second in 2..<60 {
            #expect(buckets.take("a", now: Double(second)) == .limited(retryAfter: 1000 - second, logLimited: nil))
        }
        #expect(buckets.take("a", now: 61) == .limited(retryAfter: 939, logLimited: 59))
    }

    @Test func theTableStaysBoundedByForgettingIdleKeys() {
        let buckets = TokenBuckets<String>(rate: 1, burst: 2, maxKeys: 100)
        for key in 0..<100 { _ = buckets.take("k\(key)", now: 0) }
        #expect(buckets.count == 100)
        _ = buckets.take("busy", now: 1)
        #expect(buckets.count <= 100)
        for key in 0..<1_000 { _ = buckets.take("flood\(key)", now: 10) }
        #expect(buckets.count <= 100)
    }
}

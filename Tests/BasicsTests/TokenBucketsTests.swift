import Basics
import Testing

/// The token buckets behind the report rate limit and the log's, on a clock the test moves by hand.
@Suite struct TokenBucketsTests {
    @Test func aBurstIsAllowedThenTheRateRefillsIt() {
        let buckets = TokenBuckets<String>(rate: 2, burst: 3)
        for _ in 0..<3 { #expect(buckets.take("a", now: 100) == .allowed(refusedBefore: 0)) }
        #expect(buckets.take("a", now: 100) == .limited(retryAfter: 1))
        #expect(buckets.take("b", now: 100).isAllowed, "another key has its own bucket")
        #expect(buckets.take("a", now: 100.5) == .allowed(refusedBefore: 1), "half a second at 2/s is one token")
        #expect(buckets.take("a", now: 100.5) == .limited(retryAfter: 1))
        #expect(buckets.take("a", now: 200) == .allowed(refusedBefore: 1))
        #expect(buckets.take("a", now: 200) == .allowed(refusedBefore: 0))
        #expect(buckets.take("a", now: 200).isAllowed)
        #expect(!buckets.take("a", now: 200).isAllowed, "refilled to the burst, never past it")
    }

    @Test func retryAfterSaysWhenATokenIsBack() {
        let buckets = TokenBuckets<String>(rate: 0.1, burst: 1)
        #expect(buckets.take("a", now: 0).isAllowed)
        #expect(buckets.take("a", now: 0) == .limited(retryAfter: 10))
        #expect(buckets.take("a", now: 4) == .limited(retryAfter: 6))
    }

    /// Log lines about a limited client are a bucket of their own: one a minute, saying what
    /// was held back meanwhile.
    @Test func aLineAMinuteCountsTheLinesHeldBack() {
        let lines = TokenBuckets<String>(rate: 1.0 / 60, burst: 1)
        #expect(lines.take("a", now: 1) == .allowed(refusedBefore: 0))
        for second in 2..<60 {
            #expect(!lines.take("a", now: Double(second)).isAllowed)
        }
        #expect(lines.take("a", now: 61) == .allowed(refusedBefore: 58))
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

import Testing

@testable import Reporting

@Suite struct TimestampCacheTests {
    /// Each time written through one cache, in this order, is the text `ReportTimestamp` writes on its own.
    @Test func aCachedSecondGivesTheSameTextAsAWholeTimestamp() {
        let day = ReportTimestamp.msPerDay
        var times: [Int64] = [dayStart, dayStart + 1, dayStart + 999, dayStart + 1000, dayStart + 1000, dayStart + 59_999,
                              dayStart + 60_000, dayStart + day - 1, dayStart + day, -1, 0, -1000, -1001,
                              ReportTimestamp.minMilliseconds, ReportTimestamp.maxMilliseconds]
        var random = SystemRandomNumberGenerator()
        var at = dayStart
        for _ in 0..<2000 {
            at += Int64.random(in: 0...700, using: &random)
            times.append(at)
        }
        var cache = TimestampCache()
        for ms in times {
            var cached = [UInt8](repeating: 0, count: 24)
            var whole = [UInt8](repeating: 0, count: 24)
            let count = cached.withUnsafeMutableBufferPointer { cache.write(ms, to: $0.baseAddress!) }
            _ = whole.withUnsafeMutableBufferPointer { ReportTimestamp.write(ms, to: $0.baseAddress!) }
            #expect(count == 24)
            #expect(cached == whole, "\(ms)")
        }
    }
}

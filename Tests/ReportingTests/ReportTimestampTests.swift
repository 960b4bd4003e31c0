import Foundation
import Testing

@testable import Reporting

@Suite struct ReportTimestampTests {
    /// Rounded half away from zero and clamped to the years 0000…9999, as `rounded()` and the limits give.
    @Test func aDatesMillisecondsAreRoundedHalfAwayFromZeroAndClamped() {
        let limits = (ReportTimestamp.minMilliseconds, ReportTimestamp.maxMilliseconds)
        var seconds: [Double] = [0, 0.0005, -0.0005, 0.0004999, -0.0004999, 0.0015, -0.0015, 1.2345, -1.2345, 0.9995,
                                 Double(dayStart) / 1000 + 0.0125, Double(dayStart) / 1000 + 0.0135,
                                 Double(limits.0) / 1000, Double(limits.0) / 1000 - 0.0004, Double(limits.0) / 1000 - 1,
                                 Double(limits.1) / 1000, Double(limits.1) / 1000 + 0.0004, Double(limits.1) / 1000 + 1,
                                 .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            // Whole and half milliseconds, and anything between, either side of 1970.
            let ms = Double(Int64.random(in: -1_000_000_000_000...2_000_000_000_000, using: &random))
            seconds += [ms / 1000, (ms + 0.5) / 1000, (ms + Double.random(in: 0..<1, using: &random)) / 1000]
        }
        for second in seconds {
            // The date's own time: a `Date` keeps it from 2001, and the way there and back can move the last bit.
            let date = Date(timeIntervalSince1970: second)
            let exact = date.timeIntervalSince1970 * 1000
            let expected = Int64(min(max(exact.rounded(), Double(limits.0)), Double(limits.1)))
            #expect(ReportTimestamp.milliseconds(date) == expected, "\(second)")
        }
    }
}

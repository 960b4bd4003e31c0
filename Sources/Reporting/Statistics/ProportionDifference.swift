#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// How a proportion differs from a baseline: the difference with its 95% interval and the
/// two-sided p-value of the pooled two-proportion z-test.
public struct ProportionDifference: Sendable, Equatable {
    /// `proportion.rate - baseline.rate`.
    public let difference: Double
    /// The 95% interval of the difference: Newcombe's hybrid score interval (Newcombe 1998, method 10),
    /// built from the two Wilson intervals, so it behaves near 0% and 100% where p ± z·SE does not.
    public let interval: ClosedRange<Double>
    /// The pooled z statistic (positive when `proportion` is higher); 0 when it is undefined.
    public let z: Double
    /// The two-sided p-value of the z-test; 1 when either side has no trials or nothing varies.
    public let pValue: Double

    /// Compares `proportion` with `baseline`.
    public init(_ proportion: Proportion, baseline: Proportion) {
        let p1 = proportion.rate, p2 = baseline.rate
        difference = p1 - p2
        let w1 = proportion.wilson(), w2 = baseline.wilson()
        let low = difference - ((p1 - w1.lowerBound) * (p1 - w1.lowerBound) + (w2.upperBound - p2) * (w2.upperBound - p2)).squareRoot()
        let high = difference + ((w1.upperBound - p1) * (w1.upperBound - p1) + (p2 - w2.lowerBound) * (p2 - w2.lowerBound)).squareRoot()
        interval = max(-1, low)...min(1, high)
        let n1 = Double(proportion.trials), n2 = Double(baseline.trials)
        let pooled = n1 + n2 == 0 ? 0 : Double(proportion.successes + baseline.successes) / (n1 + n2)
        let variance = n1 > 0 && n2 > 0 ? pooled * (1 - pooled) * (1 / n1 + 1 / n2) : 0
        z = variance > 0 ? difference / variance.squareRoot() : 0
        // Two-sided tail of the standard normal: 2·(1 − Φ(|z|)) = erfc(|z| / √2).
        pValue = variance > 0 ? erfc(abs(z) / 2.0.squareRoot()) : 1
    }
}

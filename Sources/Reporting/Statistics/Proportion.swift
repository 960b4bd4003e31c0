#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A count of successes out of trials (selections out of home views) and its 95% interval.
public struct Proportion: Sendable, Equatable {
    /// Successes, at most `trials`.
    public let successes: Int
    /// Trials.
    public let trials: Int

    /// Creates a proportion; successes beyond the trials are capped (a rate above 100% is no proportion).
    public init(successes: Int, trials: Int) {
        self.trials = max(0, trials)
        self.successes = min(max(0, successes), self.trials)
    }

    /// The standard normal quantile for a two-sided 95% interval.
    public static let z95 = 1.959963984540054

    /// successes / trials; 0 without trials.
    public var rate: Double { trials == 0 ? 0 : Double(successes) / Double(trials) }

    /// The Wilson score interval (Newcombe 1998, method 3): unlike the textbook p ± z·SE it stays
    /// inside [0, 1] and keeps its coverage near 0% and 100% and for small counts. [0, 1] without trials.
    public func wilson(z: Double = Proportion.z95) -> ClosedRange<Double> {
        guard trials > 0 else { return 0...1 }
        let n = Double(trials), p = rate, z2 = z * z
        let center = (2 * n * p + z2) / (2 * (n + z2))
        let half = z * (z2 + 4 * n * p * (1 - p)).squareRoot() / (2 * (n + z2))
        // At 0% and 100% the bound is exactly 0 or 1; the arithmetic can miss it by a rounding error.
        return (successes == 0 ? 0 : max(0, center - half))...(successes == trials ? 1 : min(1, center + half))
    }
}

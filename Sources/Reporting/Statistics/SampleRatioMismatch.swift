#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The sample-ratio-mismatch check: are the visitors per group what the weights promise?
/// Pearson's chi-square goodness of fit, as gbstats 0.8.0's `check_srm` (`gbstats/utils.py`):
/// χ² = Σ (observed − expected)² / expected over the groups with weight > 0, with groups − 1
/// degrees of freedom. A p-value below `warningThreshold` says the split is broken (a bug in
/// assignment, tracking or filtering), and then no other figure of the experiment can be trusted.
public enum SampleRatioMismatch {
    /// GrowthBook's default threshold for the warning.
    public static let warningThreshold = 0.001

    /// The p-value; 1 without visitors.
    public static func pValue(visitors: [Int], weights: [Double]) -> Double {
        precondition(visitors.count == weights.count)
        let total = Double(visitors.reduce(0, +)), totalWeight = weights.reduce(0, +)
        guard total > 0, totalWeight > 0, visitors.count > 1 else { return 1 }
        var chiSquare = 0.0
        for (observed, weight) in zip(visitors, weights) where weight > 0 {
            let expected = weight / totalWeight * total
            chiSquare += (Double(observed) - expected) * (Double(observed) - expected) / expected
        }
        // The chi-square survival function with k degrees of freedom is Q(k/2, χ²/2).
        return SpecialFunctions.regularizedUpperGamma(Double(visitors.count - 1) / 2, chiSquare / 2)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// How a variation's metric differs from the baseline's: the estimate, its interval and p-value,
/// by a fixed-horizon or a sequential test, as gbstats 0.8.0 computes them
/// (`gbstats/frequentist/tests.py`: `TwoSidedTTest`, `SequentialTwoSidedTTest`).
public struct EffectEstimate: Sendable, Equatable {
    /// Absolute: variation − baseline, in the metric's unit. Relative: (variation − baseline) /
    /// baseline, the lift as a fraction of the baseline.
    public enum Difference: String, Sendable, CaseIterable { case absolute, relative }

    /// Why there is no estimate; gbstats then answers 0 with [0, 0] and p = 1.
    public enum Problem: String, Sendable {
        /// The baseline's mean is 0: a relative lift from nothing is undefined.
        case baselineZero
        /// A group's metric does not vary (all 0, all 1, or one visitor): no standard error.
        case noVariance
    }

    public let difference: Difference
    /// The estimated difference.
    public let expected: Double
    /// The interval at the test's confidence (95% by default).
    public let interval: ClosedRange<Double>
    /// The two-sided p-value; for the sequential test an always-valid one, capped at 1.
    public let pValue: Double
    /// Why the test could not be made, nil when it could.
    public let problem: Problem?

    /// Welch's t-test with the Welch–Satterthwaite degrees of freedom; the relative difference's
    /// variance by the delta method: σ²_b/(μ_a²·n_b) + σ²_a·μ_b²/(μ_a⁴·n_a).
    public static func fixedHorizon(baseline a: MetricStatistic, variation b: MetricStatistic,
                                    difference: Difference, alpha: Double = 0.05) -> EffectEstimate {
        if let problem = problem(a, b) { return undefined(difference, problem) }
        let estimate = pointEstimate(a, b, difference), variance = differenceVariance(a, b, difference)
        let va = a.variance / Double(a.n), vb = b.variance / Double(b.n)
        let dof = (va + vb) * (va + vb) / (vb * vb / Double(b.n - 1) + va * va / Double(a.n - 1))
        let t = StudentT(degreesOfFreedom: dof)
        let width = t.twoSidedQuantile(tail: alpha) * variance.squareRoot()
        return EffectEstimate(difference: difference, expected: estimate,
                              interval: (estimate - width)...(estimate + width),
                              pValue: t.twoSidedTail(estimate / variance.squareRoot()), problem: nil)
    }

    /// The always-valid interval and p-value of Waudby-Smith et al., "Time-uniform central limit
    /// theory and asymptotic confidence sequences" (2023, arXiv:2103.06476v7, eq. 9, 155 and 161),
    /// as gbstats uses them: valid however often the result is looked at. `tuning` is the total
    /// number of visitors at which the interval is tightest (gbstats' default 5,000).
    public static func sequential(baseline a: MetricStatistic, variation b: MetricStatistic,
                                  difference: Difference, alpha: Double = 0.05,
                                  tuning: Double = 5000) -> EffectEstimate {
        if let problem = problem(a, b) { return undefined(difference, problem) }
        let estimate = pointEstimate(a, b, difference), variance = differenceVariance(a, b, difference)
        let total = Double(a.n + b.n)
        let rho2 = (-2 * log(alpha) + log(-2 * log(alpha) + 1)) / tuning
        let spread = total * rho2 + 1
        let width = (variance * total).squareRoot()
            * (2 * spread * log(spread.squareRoot() / alpha) / (total * total * rho2)).squareRoot()
        let st2 = estimate * estimate * total / variance
        let eValue = exp(rho2 * st2 / (2 * spread)) / spread.squareRoot()
        return EffectEstimate(difference: difference, expected: estimate,
                              interval: (estimate - width)...(estimate + width),
                              pValue: min(1 / eValue, 1), problem: nil)
    }

    private static func problem(_ a: MetricStatistic, _ b: MetricStatistic) -> Problem? {
        if a.mean == 0 { return .baselineZero }
        if !(a.variance > 0) || !(b.variance > 0) || a.n < 2 || b.n < 2 { return .noVariance }
        return nil
    }

    private static func undefined(_ difference: Difference, _ problem: Problem) -> EffectEstimate {
        EffectEstimate(difference: difference, expected: 0, interval: 0...0, pValue: 1, problem: problem)
    }

    private static func pointEstimate(_ a: MetricStatistic, _ b: MetricStatistic, _ difference: Difference) -> Double {
        difference == .relative ? (b.mean - a.mean) / a.mean : b.mean - a.mean
    }

    private static func differenceVariance(_ a: MetricStatistic, _ b: MetricStatistic, _ difference: Difference) -> Double {
        let na = Double(a.n), nb = Double(b.n)
        guard difference == .relative else { return b.variance / nb + a.variance / na }
        let ma2 = a.mean * a.mean
        return b.variance / (ma2 * nb) + a.variance * b.mean * b.mean / (ma2 * ma2 * na)
    }
}

/// A group's metric as the tests need it: the number of visitors, the mean per visitor (or the
/// ratio) and the variance of one visitor's value, all from sums the server keeps. The formulas are
/// gbstats 0.8.0's (`gbstats/models/statistics.py`), which the unit tests check against.
public struct MetricStatistic: Sendable, Equatable {
    /// Visitors (the unit randomised).
    public let n: Int
    /// The mean per visitor, or for a ratio metric the ratio of the sums.
    public let mean: Double
    /// The variance of one visitor's value (for a ratio metric, the delta method's).
    public let variance: Double

    public init(n: Int, mean: Double, variance: Double) {
        self.n = n
        self.mean = mean
        self.variance = variance
    }

    /// Visitors who did something, out of `n`: mean p, variance p·(1 − p).
    public static func proportion(visitors n: Int, converting: Int) -> MetricStatistic {
        let p = n == 0 ? 0 : Double(converting) / Double(n)
        return MetricStatistic(n: n, mean: p, variance: p * (1 - p))
    }

    /// A count per visitor from its sum and its sum of squares: the sample mean and the unbiased
    /// sample variance (Σx² − (Σx)²/n) / (n − 1); 0 for one visitor or none.
    public static func sampleMean(visitors n: Int, sum: Double, sumOfSquares: Double) -> MetricStatistic {
        MetricStatistic(n: n, mean: n == 0 ? 0 : sum / Double(n), variance: sampleVariance(n, sum, sumOfSquares))
    }

    /// Σm / Σd per visitor (selections per view), with the delta method's variance of one visitor's
    /// contribution (Deng, Knoblich and Lu, "Applying the Delta Method in Metric Analytics", KDD 2018):
    /// σ²_m/μ_d² − 2·cov(m, d)·μ_m/μ_d³ + μ_m²·σ²_d/μ_d⁴, with μ and σ² per visitor.
    public static func ratio(visitors n: Int, numeratorSum: Double, numeratorSumOfSquares: Double,
                             denominatorSum: Double, denominatorSumOfSquares: Double,
                             sumOfProducts: Double) -> MetricStatistic {
        let mean = denominatorSum == 0 ? 0 : numeratorSum / denominatorSum
        guard n > 1, denominatorSum != 0 else { return MetricStatistic(n: n, mean: mean, variance: 0) }
        let count = Double(n)
        let muM = numeratorSum / count, muD = denominatorSum / count
        let varM = sampleVariance(n, numeratorSum, numeratorSumOfSquares)
        let varD = sampleVariance(n, denominatorSum, denominatorSumOfSquares)
        let covariance = (sumOfProducts - numeratorSum * denominatorSum / count) / (count - 1)
        let variance = varM / (muD * muD) - 2 * covariance * muM / (muD * muD * muD)
            + muM * muM * varD / (muD * muD * muD * muD)
        return MetricStatistic(n: n, mean: mean, variance: variance)
    }

    private static func sampleVariance(_ n: Int, _ sum: Double, _ sumOfSquares: Double) -> Double {
        n <= 1 ? 0 : (sumOfSquares - sum * sum / Double(n)) / Double(n - 1)
    }
}

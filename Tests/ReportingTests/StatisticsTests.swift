import Foundation
import Reporting
import Testing

/// The experiment statistics against worked values published with each method.
@Suite struct StatisticsTests {
    static func close(_ value: Double, _ expected: Double, _ tolerance: Double = 0.00005) -> Bool {
        abs(value - expected) <= tolerance
    }

    /// Newcombe RG (1998), "Two-sided confidence intervals for the single proportion: comparison of
    /// seven methods", Statistics in Medicine 17:857–872, Table I, method 3 (Wilson score, no
    /// continuity correction), to the four decimals printed there.
    @Test(arguments: [
        (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0000, 0.1611), (1, 29, 0.0061, 0.1718),
    ])
    func wilsonInterval(successes: Int, trials: Int, low: Double, high: Double) {
        let interval = Proportion(successes: successes, trials: trials).wilson()
        #expect(Self.close(interval.lowerBound, low) && Self.close(interval.upperBound, high), "\(interval)")
    }

    @Test func wilsonIntervalEdges() {
        #expect(Proportion(successes: 0, trials: 0).wilson() == 0...1)
        let all = Proportion(successes: 29, trials: 29).wilson()
        #expect(all.upperBound == 1 && all.lowerBound < 1)
        #expect(Proportion(successes: 12, trials: 10) == Proportion(successes: 10, trials: 10), "capped at the trials")
    }

    /// Newcombe RG (1998), "Interval estimation for the difference between independent proportions:
    /// comparison of eleven methods", Statistics in Medicine 17:873–890, Table II, method 10 (score
    /// interval from the two Wilson intervals), to the four decimals printed there.
    @Test(arguments: [
        (56, 70, 48, 80, 0.0524, 0.3339), (9, 10, 3, 10, 0.1705, 0.8090), (6, 7, 2, 7, 0.0582, 0.8062),
        (5, 56, 0, 29, -0.0381, 0.1926), (0, 10, 0, 20, -0.1611, 0.2775), (10, 10, 0, 20, 0.6791, 1.0000),
    ])
    func differenceInterval(x1: Int, n1: Int, x2: Int, n2: Int, low: Double, high: Double) {
        let difference = ProportionDifference(Proportion(successes: x1, trials: n1), baseline: Proportion(successes: x2, trials: n2))
        #expect(Self.close(difference.interval.lowerBound, low) && Self.close(difference.interval.upperBound, high),
                "\(difference.interval)")
    }

    /// The pooled two-proportion z-test. Agresti, An Introduction to Categorical Data Analysis, 2nd ed.
    /// (2007), Table 2.3, the Physicians' Health Study: myocardial infarction in 189 of 11,034 on placebo
    /// and 104 of 11,037 on aspirin; Pearson's X² for the table is 25.01 (for a 2×2 table X² = z²).
    /// OpenIntro Statistics, 4th ed. (Diez, Çetinkaya-Rundel, Barr, 2019), section 6.2.3, the mammogram
    /// study: 500 of 44,925 vs 505 of 44,910 deaths, Z ≈ −0.17 (from the rounded difference), p-value ≈ 0.87.
    @Test func zTest() {
        let aspirin = ProportionDifference(Proportion(successes: 189, trials: 11_034), baseline: Proportion(successes: 104, trials: 11_037))
        #expect(Self.close(aspirin.z * aspirin.z, 25.01, 0.005), "\(aspirin.z)")
        #expect(aspirin.pValue < 0.001 && aspirin.pValue > 0)
        let mammogram = ProportionDifference(Proportion(successes: 500, trials: 44_925), baseline: Proportion(successes: 505, trials: 44_910))
        #expect(mammogram.z < 0 && Self.close(mammogram.z, -0.17, 0.01), "\(mammogram.z)")
        #expect(Self.close(mammogram.pValue, 0.87, 0.005), "\(mammogram.pValue)")
        // The p-value is the two-sided normal tail: |z| = 1.959964 gives 0.05.
        let none = ProportionDifference(Proportion(successes: 5, trials: 50), baseline: Proportion(successes: 5, trials: 50))
        #expect(none.z == 0 && none.pValue == 1 && none.difference == 0)
        #expect(ProportionDifference(Proportion(successes: 0, trials: 0), baseline: Proportion(successes: 5, trials: 50)).pValue == 1)
    }

    /// JMP 13.2 documentation, Design of Experiments Guide, "Two Sample Proportions": proportions
    /// 0.08 and 0.06, α = 0.05 two-sided, power 0.8 → sample size 2554 per group. The same formula
    /// (Fleiss, Levin and Paik 2003, chapter 4, without continuity correction) gives 2553.6.
    @Test func sampleSize() {
        #expect(SampleSize.perGroup(baseline: 0.06, difference: 0.02) == 2554)
        #expect(SampleSize.perGroup(baseline: 0.08, difference: -0.02) == 2554, "symmetric in the two groups")
        // A 1-point difference from 10% needs far more than a 2-point one from 6%.
        let onePoint = SampleSize.perGroup(baseline: 0.10, difference: 0.01)
        #expect(onePoint.map { $0 > 10_000 } == true, "\(String(describing: onePoint))")
        #expect(SampleSize.perGroup(baseline: 0.1, difference: 0) == nil)
        #expect(SampleSize.perGroup(baseline: 0.995, difference: 0.01) == nil)
    }
}

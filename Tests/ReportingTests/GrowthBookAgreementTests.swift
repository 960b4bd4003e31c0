import Foundation
import Reporting
import Testing

/// The experiment statistics against GrowthBook's engine: `scripts/gbstats-fixtures.py` made
/// synthetic experiments with fixed seeds and wrote gbstats 0.8.0's results beside them in
/// `Fixtures/gbstats.json`; every figure here must agree to 4 significant digits.
@Suite struct GrowthBookAgreementTests {
    struct Sums: Decodable {
        let visitors, converting, selections, selectionSquares, views, viewSquares, viewSelectionProducts: Int
    }
    struct Result: Decodable {
        let expected, low, high, pValue: Double
        let errorMessage: String?
    }
    struct Tests: Decodable { let fixed, sequential: Result }
    struct Metric: Decodable {
        let baselineMean, baselineVariance, mean, variance: Double
        let relative, absolute: Tests
    }
    struct Case: Decodable {
        let name: String
        let baseline, variation: Sums
        let gbstats: [String: Metric]
    }
    struct SRM: Decodable { let visitors: [Int]; let weights: [Double]; let pValue: Double }
    struct Fixtures: Decodable {
        let gbstats: String
        let alpha, sequentialTuning: Double
        let cases: [Case]
        let srm: [SRM]
    }

    static let fixtures: Fixtures = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/gbstats.json")
        // A missing or unreadable fixture file is a broken checkout: stop loudly.
        return try! JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: url))
    }()

    /// Equal to 4 significant digits: |a − b| ≤ 0.5e−4·|b|; values that are 0 in gbstats must be
    /// within 1e−12 (a rounding error).
    static func agrees(_ value: Double, _ reference: Double) -> Bool {
        if reference == 0 { return abs(value) < 1e-12 }
        return abs(value - reference) <= 0.5e-4 * abs(reference)
    }

    static func statistic(_ metric: String, _ s: Sums) -> MetricStatistic {
        switch metric {
        case "proportion": .proportion(visitors: s.visitors, converting: s.converting)
        case "mean": .sampleMean(visitors: s.visitors, sum: Double(s.selections), sumOfSquares: Double(s.selectionSquares))
        default: .ratio(visitors: s.visitors, numeratorSum: Double(s.selections), numeratorSumOfSquares: Double(s.selectionSquares),
                        denominatorSum: Double(s.views), denominatorSumOfSquares: Double(s.viewSquares),
                        sumOfProducts: Double(s.viewSelectionProducts))
        }
    }

    @Test func theFixturesComeFromTheReferenceVersion() {
        #expect(Self.fixtures.gbstats == "0.8.0")
        #expect(Self.fixtures.cases.count >= 6 && Self.fixtures.srm.count >= 6)
    }

    @Test(arguments: ["proportion", "mean", "ratio"])
    func meansAndVariances(metric: String) {
        for c in Self.fixtures.cases {
            let reference = c.gbstats[metric]!
            let a = Self.statistic(metric, c.baseline), b = Self.statistic(metric, c.variation)
            #expect(Self.agrees(a.mean, reference.baselineMean) && Self.agrees(a.variance, reference.baselineVariance),
                    "\(c.name) \(metric) baseline: \(a) vs \(reference.baselineMean), \(reference.baselineVariance)")
            #expect(Self.agrees(b.mean, reference.mean) && Self.agrees(b.variance, reference.variance),
                    "\(c.name) \(metric) variation: \(b) vs \(reference.mean), \(reference.variance)")
        }
    }

    @Test(arguments: ["proportion", "mean", "ratio"], EffectEstimate.Difference.allCases)
    func fixedHorizonAndSequentialTests(metric: String, difference: EffectEstimate.Difference) {
        let alpha = Self.fixtures.alpha, tuning = Self.fixtures.sequentialTuning
        for c in Self.fixtures.cases {
            let a = Self.statistic(metric, c.baseline), b = Self.statistic(metric, c.variation)
            let reference = difference == .relative ? c.gbstats[metric]!.relative : c.gbstats[metric]!.absolute
            let computed = [
                ("fixed", EffectEstimate.fixedHorizon(baseline: a, variation: b, difference: difference, alpha: alpha), reference.fixed),
                ("sequential", EffectEstimate.sequential(baseline: a, variation: b, difference: difference, alpha: alpha, tuning: tuning),
                 reference.sequential),
            ]
            for (test, estimate, expected) in computed {
                let where_ = "\(c.name) \(metric) \(difference) \(test): \(estimate) vs \(expected)"
                #expect(Self.agrees(estimate.expected, expected.expected), "\(where_)")
                #expect(Self.agrees(estimate.interval.lowerBound, expected.low), "\(where_)")
                #expect(Self.agrees(estimate.interval.upperBound, expected.high), "\(where_)")
                #expect(Self.agrees(estimate.pValue, expected.pValue), "\(where_)")
                #expect((estimate.problem == nil) == (expected.errorMessage == nil), "\(where_)")
            }
        }
    }

    @Test func sampleRatioMismatch() {
        for srm in Self.fixtures.srm {
            let pValue = SampleRatioMismatch.pValue(visitors: srm.visitors, weights: srm.weights)
            #expect(Self.agrees(pValue, srm.pValue), "\(srm.visitors) \(srm.weights): \(pValue) vs \(srm.pValue)")
        }
        let split = SampleRatioMismatch.pValue(visitors: [5200, 4800], weights: [1, 1])
        #expect(split < SampleRatioMismatch.warningThreshold, "52/48 of 10,000 on 50/50 warns")
    }

    /// The fixtures cover both kinds of result: the sequential test is wider than the fixed one,
    /// and some p-values fall below 0.05 and some do not, so a test that always said "1" would fail.
    @Test func theFixturesAreNotTrivial() {
        let results = Self.fixtures.cases.flatMap { c in c.gbstats.values.flatMap { [$0.relative, $0.absolute] } }
        #expect(results.contains { $0.fixed.pValue < 0.05 } && results.contains { $0.fixed.pValue > 0.5 })
        #expect(results.contains { $0.sequential.pValue < 0.05 && $0.sequential.pValue > 0 })
        #expect(results.allSatisfy { $0.sequential.high - $0.sequential.low >= $0.fixed.high - $0.fixed.low })
    }
}

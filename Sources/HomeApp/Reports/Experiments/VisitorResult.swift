import FeatureToggles
import Reporting

/// One experiment's results with the visitor as the unit, from the writer's exact sums: per group
/// the exposed and converting visitors and the selections per visitor and per view; against the
/// first group each metric's absolute difference and relative lift with interval and p-value, by the
/// sequential test (valid however often the page is looked at) and the fixed-horizon test; and the
/// sample-ratio-mismatch check of the split against the toggles' weights.
struct VisitorResult {
    /// Below this many visitors in a group the page shows counts only: no rate, no test.
    static let minimumVisitors = 100

    enum Test: String, CaseIterable { case sequential, fixed }

    enum Metric: String, CaseIterable {
        case converting, convertingLong, convertingShort, convertingStream, selectionsPerVisitor, selectionsPerView, playing,
             playsPerVisitor

        var label: String {
            switch self {
            case .converting: "Visitors who selected"
            case .convertingLong: "… a long item"
            case .convertingShort: "… a short item"
            case .convertingStream: "… a stream"
            case .selectionsPerVisitor: "Selections per visitor"
            case .selectionsPerView: "Selections per home view"
            case .playing: "Visitors who started a play"
            case .playsPerVisitor: "Plays per visitor"
            }
        }

        /// A share of visitors (shown in %) rather than a count per visitor or per view.
        var isShare: Bool { ![.selectionsPerVisitor, .selectionsPerView, .playsPerVisitor].contains(self) }

        func statistic(_ s: VisitorSums) -> MetricStatistic {
            switch self {
            case .converting: .proportion(visitors: s.visitors, converting: s.converting)
            case .convertingLong: .proportion(visitors: s.visitors, converting: s.convertingLong)
            case .convertingShort: .proportion(visitors: s.visitors, converting: s.convertingShort)
            case .convertingStream: .proportion(visitors: s.visitors, converting: s.convertingStream)
            case .selectionsPerVisitor:
                .sampleMean(visitors: s.visitors, sum: Double(s.selections), sumOfSquares: Double(s.selectionSquares))
            case .selectionsPerView:
                .ratio(visitors: s.visitors, numeratorSum: Double(s.selections), numeratorSumOfSquares: Double(s.selectionSquares),
                       denominatorSum: Double(s.views), denominatorSumOfSquares: Double(s.viewSquares),
                       sumOfProducts: Double(s.viewSelectionProducts))
            case .playing: .proportion(visitors: s.visitors, converting: s.playing)
            case .playsPerVisitor: .sampleMean(visitors: s.visitors, sum: Double(s.plays), sumOfSquares: Double(s.playSquares))
            }
        }
    }

    struct Group {
        let name: String
        let sums: VisitorSums
        /// The toggles' weight; nil when the toggles do not name the group.
        let weight: Double?
    }

    struct Comparison {
        let metric: Metric
        let group: String
        let baseline: MetricStatistic
        let value: MetricStatistic
        let absolute: [Test: EffectEstimate]
        let relative: [Test: EffectEstimate]
    }

    /// A group's guardrail metric against the first group's, by the sequential test (valid at
    /// any look, like the primary metrics), and whether it rose beyond the toggles' margin.
    struct Guardrail {
        enum Metric: String, CaseIterable {
            /// The share of visitors shown an error page.
            case errors
            /// The share of exposed visitors who made no selection.
            case noSelection

            var label: String {
                switch self {
                case .errors: "Visitors shown an error page"
                case .noSelection: "Visitors who left without a selection"
                }
            }

            func statistic(_ s: VisitorSums) -> MetricStatistic {
                switch self {
                case .errors: .proportion(visitors: s.visitors, converting: s.erroring)
                case .noSelection: .proportion(visitors: s.visitors, converting: s.withoutSelection)
                }
            }

            func margin(_ margins: Toggles.Guardrail) -> Double {
                switch self {
                case .errors: margins.errors
                case .noSelection: margins.noSelection
                }
            }
        }

        enum State: String {
            /// The whole interval is above the margin: the group is worse by more than allowed.
            case breached
            /// The interval reaches above the margin: not yet shown to stay within it.
            case unclear
            /// The whole interval is at or below the margin.
            case within
        }

        let metric: Metric
        let group: String
        let baseline: MetricStatistic
        let value: MetricStatistic
        let margin: Double
        let estimate: EffectEstimate

        /// Without a test (a group that does not vary, such as no errors at all in the first group)
        /// the observed difference is held against the margin.
        var state: State {
            guard estimate.problem == nil else { return value.mean - baseline.mean > margin ? .breached : .within }
            if estimate.interval.lowerBound > margin { return .breached }
            return estimate.interval.upperBound > margin ? .unclear : .within
        }
    }

    let groups: [Group]
    /// Per other group and guardrail metric; empty until every group has enough visitors.
    let guardrails: [Guardrail]
    var guardrailBreached: Bool { guardrails.contains { $0.state == .breached } }
    /// The chi-square p-value of the split against the weights; nil without weights for every group.
    let srmPValue: Double?
    let comparisons: [Comparison]
    /// Some events were not counted (a ninth group, or a full disk): the sums are a lower bound.
    let incomplete: Bool
    /// The toggles version that last moved this experiment's visitors to other groups, while it ran
    /// or starting it again (`SplitChanges`); the sample-ratio check then measures the old split by
    /// new weights.
    var splitChange: LastRunSplits.Change?

    var srmWarning: Bool { (srmPValue ?? 1) < SampleRatioMismatch.warningThreshold }
    var enoughData: Bool { groups.count > 1 && groups.allSatisfy { $0.sums.visitors >= Self.minimumVisitors } }
    var visitors: Int { groups.reduce(0) { $0 + $1.sums.visitors } }

    /// The result from the tallies (groups in the toggles' order, then as met); groups the toggles
    /// name but nobody reached yet count as 0.
    init(_ tally: ExperimentVisitors?, toggles: Toggles.Experiment?, margins: Toggles.Guardrail = .standard) {
        incomplete = tally?.uncountedGroups ?? false
        var order = toggles?.groups.map(\.name) ?? []
        order += (tally?.groups.map(\.group) ?? []).filter { !order.contains($0) }
        groups = order.map { name in
            Group(name: name, sums: tally?.sums(name) ?? VisitorSums(), weight: toggles?.groups.first { $0.name == name }?.weight)
        }
        let weights = groups.compactMap(\.weight)
        srmPValue = weights.count == groups.count && groups.count > 1
            ? SampleRatioMismatch.pValue(visitors: groups.map(\.sums.visitors), weights: weights) : nil
        var comparisons: [Comparison] = []
        if let first = groups.first {
            for metric in Metric.allCases {
                let baseline = metric.statistic(first.sums)
                for group in groups.dropFirst() {
                    let value = metric.statistic(group.sums)
                    var absolute: [Test: EffectEstimate] = [:], relative: [Test: EffectEstimate] = [:]
                    for (kind, into) in [(EffectEstimate.Difference.absolute, 0), (.relative, 1)] {
                        let sequential = EffectEstimate.sequential(baseline: baseline, variation: value, difference: kind)
                        let fixed = EffectEstimate.fixedHorizon(baseline: baseline, variation: value, difference: kind)
                        if into == 0 { absolute = [.sequential: sequential, .fixed: fixed] } else { relative = [.sequential: sequential, .fixed: fixed] }
                    }
                    comparisons.append(Comparison(metric: metric, group: group.name, baseline: baseline, value: value,
                                                  absolute: absolute, relative: relative))
                }
            }
        }
        self.comparisons = comparisons
        var guardrails: [Guardrail] = []
        if let first = groups.first, groups.count > 1, groups.allSatisfy({ $0.sums.visitors >= Self.minimumVisitors }) {
            for metric in Guardrail.Metric.allCases {
                let baseline = metric.statistic(first.sums)
                for group in groups.dropFirst() {
                    let value = metric.statistic(group.sums)
                    guardrails.append(Guardrail(metric: metric, group: group.name, baseline: baseline, value: value,
                                                margin: metric.margin(margins),
                                                estimate: .sequential(baseline: baseline, variation: value, difference: .absolute)))
                }
            }
        }
        self.guardrails = guardrails
    }
}

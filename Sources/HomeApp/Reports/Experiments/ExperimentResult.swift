import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// One experiment's results as the page and `/reports.json` show them: per group the selection rate
/// per home view with its Wilson interval, and against the first group the difference, its
/// interval, the z-test's p-value and the views per group still needed.
struct ExperimentResult {
    /// The minimum difference to plan for while none is observed: 1 point.
    static let plannedDifference = 0.01

    struct Group {
        let name: String
        /// The layout the toggles give the group, else the layout its views showed most.
        let layout: String?
        /// Whether the toggles give the group that layout: only then can it be rolled out from here
        /// (a group that sets only the notice shows the layout its visitors happened to get).
        let setsLayout: Bool
        /// A label for sentences: the layout's display name when it tells the groups apart, else `Group <name>`.
        let label: String
        let visitors: Int
        let views: Int
        let selections: Int
        let rate: Proportion
        let interval: ClosedRange<Double>
        /// Against the first group; nil for the first group itself.
        let comparison: ProportionDifference?
        /// Views this group and the first still need to detect the difference (observed, or 1 point).
        let stillNeeded: Int?
        let days: [(day: Date, views: Int, selections: Int)]
    }

    let name: String
    /// Whether the toggles run it now; nil when the toggles no longer name it.
    let active: Bool?
    let groups: [Group]
    /// The visitor-level results from the writer's exact tallies; nil where there are none (a
    /// store opened without its writer).
    var visitors: VisitorResult?
    /// For the running experiment that sets the layout: a sentence on what visitors get once it stops.
    var afterwards: String?

    /// The p-value of "some group differs from the first": the smallest p times the number of
    /// comparisons (Bonferroni), at most 1; with two groups, the z-test's own p. Nil with one group.
    var pValue: Double? {
        let values = groups.compactMap { $0.comparison?.pValue }
        guard let smallest = values.min() else { return nil }
        return min(1, smallest * Double(values.count))
    }

    /// The largest number of views per group still needed over the comparisons.
    var stillNeeded: Int? { groups.compactMap(\.stillNeeded).max() }

    /// Builds the results of experiment `name` from its groups' counts (none yet for an experiment
    /// just started), in the toggles' group order when the toggles name the experiment.
    init(name: String, counts: [ReportGroupCounts], toggles: Toggles.Experiment?, displayNames: [String: String]) {
        self.name = name
        active = toggles?.active
        let byName = Dictionary(counts.map { ($0.group, $0) }, uniquingKeysWith: { first, _ in first })
        var order = toggles?.groups.map(\.name) ?? []
        order += counts.map(\.group).filter { !order.contains($0) }.sorted()
        let layouts = order.map { name in
            toggles?.groups.first { $0.name == name }?.layout
                ?? byName[name]?.layouts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        }
        let layoutsTellApart = Set(layouts.compactMap { $0 }).count == order.count
        var groups: [Group] = []
        for (index, name) in order.enumerated() {
            let counts = byName[name]
            let rate = Proportion(successes: counts?.selections ?? 0, trials: counts?.views ?? 0)
            let layout = layouts[index].flatMap { $0.isEmpty ? nil : $0 }
            let label = layoutsTellApart ? layout.map { displayNames[$0] ?? $0 } ?? "Group \(name)" : "Group \(name)"
            var comparison: ProportionDifference?, stillNeeded: Int?
            if let first = groups.first {
                let difference = ProportionDifference(rate, baseline: first.rate)
                comparison = difference
                // No difference yet: plan for one point, downwards when the first rate is at 100%.
                let upward = first.rate.rate + Self.plannedDifference <= 1
                let planned = difference.difference != 0 ? difference.difference
                    : upward ? Self.plannedDifference : -Self.plannedDifference
                // No plan from nothing: with a group still without views there is no rate to start from.
                stillNeeded = first.views == 0 || rate.trials == 0 ? nil
                    : SampleSize.perGroup(baseline: first.rate.rate, difference: planned).map { max(0, $0 - min(first.views, rate.trials)) }
            }
            let setsLayout = toggles?.groups.first { $0.name == name }?.layout.map { !$0.isEmpty } ?? false
            groups.append(Group(name: name, layout: layout, setsLayout: setsLayout, label: label, visitors: counts?.visitors ?? 0,
                                views: counts?.views ?? 0, selections: counts?.selections ?? 0, rate: rate,
                                interval: rate.wilson(), comparison: comparison, stillNeeded: stillNeeded,
                                days: counts?.days ?? []))
        }
        self.groups = groups
    }

    /// "Grid: 12.4% (11.9–12.9%) vs List: 10.1% (9.6–10.6%), p < 0.001" for a group against the first.
    func sentence(for group: Group) -> String? {
        guard let first = groups.first, let comparison = group.comparison, first.views > 0, group.views > 0 else { return nil }
        return "\(group.label): \(Self.percent(group.rate.rate)) (\(Self.range(group.interval))) vs "
            + "\(first.label): \(Self.percent(first.rate.rate)) (\(Self.range(first.interval))), \(Self.p(comparison.pValue))"
    }

    /// 1234567 → "1,234,567".
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    static func percent(_ value: Double) -> String { String(printf: "%.1f%%", value * 100) }

    static func points(_ value: Double) -> String { String(printf: "%+.1f", value * 100) }

    static func range(_ interval: ClosedRange<Double>) -> String {
        String(printf: "%.1f\u{2013}%.1f%%", interval.lowerBound * 100, interval.upperBound * 100)
    }

    static func p(_ value: Double) -> String { value < 0.001 ? "p < 0.001" : String(printf: "p = %.3f", value) }
}

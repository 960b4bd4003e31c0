import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Toggles {
    /// What visitors get by layout once no experiment sets it: the rollout's shares, the rest the
    /// default, e.g. "grid 10%, list 90%".
    public var layoutsWithoutExperiments: String {
        var shares = rollout.filter { $0.value > 0 }
        shares[defaultLayout, default: 0] += max(0, 1 - rollout.values.reduce(0, +))
        return shares.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { "\($0.key) \(Self.percent($0.value))" }.joined(separator: ", ")
    }

    /// The active experiment that sets the layout of some of its groups' visitors, if any.
    public var layoutExperiment: Experiment? {
        activeExperiments.first { $0.groups.contains { $0.layout != nil } }
    }

    /// Rules the file follows that may surprise its author: while an experiment sets the layout,
    /// the rollout's shares are not applied to its groups' visitors (every visitor it takes in is
    /// in one of its groups); visitors its targeting or namespace range leave out get the rollout.
    /// Logged when the file is loaded; the file is still accepted.
    public var interplayWarnings: [String] {
        guard rollout.values.contains(where: { $0 > 0 }) else { return [] }
        return activeExperiments.filter(\.setsLayout).map { experiment in
            let setting = experiment.groups.filter { $0.layout != nil }.map(\.name)
            let limited = !experiment.targeting.isEmpty || experiment.namespace != nil
            let visitors = limited ? "visitor it takes in" : "visitor"
            let whom = setting.count == experiment.groups.count
                ? "every \(visitors)" : "the visitors of group\(setting.count == 1 ? "" : "s") \(setting.joined(separator: ", "))"
            let outside = limited ? "; visitors its targeting or namespace range leave out get the rollout now" : ""
            return "experiment \"\(experiment.name)\" sets the layout of \(whom), so the rollout does not apply to them while it is "
                + "active\(outside); once it stops, visitors get \(layoutsWithoutExperiments)"
        }
    }

    private static func percent(_ share: Double) -> String {
        let value = share * 100
        return value == value.rounded() ? "\(Int(value))%" : String(printf: "%.1f%%", value)
    }
}

import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Toggles {
    /// Parses and validates toggles as the file loader does, layouts included: what an apply
    /// from the admin pages must pass before it is written.
    public init(json: Data, file: String, layouts: [String]?) throws(TogglesError) {
        try self.init(json: json, file: file)
        if let layouts { try checkLayouts(layouts, file: file) }
    }

    /// The toggles as the file the admin pages write: every field in the newer form, in a fixed
    /// order, one group a line, so two versions compare line by line. Reading it back gives
    /// equal toggles.
    public var jsonText: String {
        var lines = ["{", "  \"defaultLayout\": \(JSONText.string(defaultLayout)),",
                     "  \"onboarding\": \(onboarding),"]
        if !rows.isEmpty { lines.append("  \"rows\": \(Self.rowsText(rows)),") }
        let shares = rollout.sorted { $0.key < $1.key }.map { "\(JSONText.string($0.key)): \(JSONText.number($0.value))" }
        lines.append("  \"rollout\": {" + shares.joined(separator: ", ") + "},")
        let rampsText = ramps.enumerated().map { index, ramp in
            let steps = ramp.steps.map { "{\"at\": \(JSONText.string(Self.rampTime($0.at))), \"share\": \(JSONText.number($0.share))}" }
            return "    {\"layout\": \(JSONText.string(ramp.layout)), \"steps\": [" + steps.joined(separator: ", ") + "]}"
                + (index < ramps.count - 1 ? "," : "")
        }
        let experimentsEnd = ramps.isEmpty ? "" : ","
        if experiments.isEmpty {
            lines.append("  \"experiments\": []" + experimentsEnd)
        } else {
            lines.append("  \"experiments\": [")
            for (index, experiment) in experiments.enumerated() {
                lines.append("    {")
                lines.append("      \"name\": \(JSONText.string(experiment.name)),")
                lines.append("      \"active\": \(experiment.active),")
                lines.append("      \"groups\": [")
                for (groupIndex, group) in experiment.groups.enumerated() {
                    var fields = ["\"name\": \(JSONText.string(group.name))", "\"weight\": \(JSONText.number(group.weight))"]
                    if let layout = group.layout { fields.append("\"layout\": \(JSONText.string(layout))") }
                    if let onboarding = group.onboarding { fields.append("\"onboarding\": \(onboarding)") }
                    if !group.visitors.isEmpty { fields.append("\"visitors\": [" + group.visitors.map(JSONText.string).joined(separator: ", ") + "]") }
                    if !group.rows.isEmpty { fields.append("\"rows\": " + Self.rowsText(group.rows)) }
                    lines.append("        {" + fields.joined(separator: ", ") + "}" + (groupIndex < experiment.groups.count - 1 ? "," : ""))
                }
                let targeting = Self.targetingText(experiment.targeting)
                var members: [String] = []
                if let targeting { members.append("      \"targeting\": " + targeting) }
                if let namespace = experiment.namespace {
                    members.append("      \"namespace\": {\"name\": \(JSONText.string(namespace.name)), \"range\": "
                                   + "[\(JSONText.number(namespace.lower)), \(JSONText.number(namespace.upper))]}")
                }
                if let guardrail = experiment.guardrail { members.append("      \"guardrail\": " + Self.guardrailText(guardrail)) }
                lines.append("      ]" + (members.isEmpty ? "" : ","))
                for (position, member) in members.enumerated() { lines.append(member + (position < members.count - 1 ? "," : "")) }
                lines.append("    }" + (index < experiments.count - 1 ? "," : ""))
            }
            lines.append("  ]" + experimentsEnd)
        }
        if !ramps.isEmpty { lines += ["  \"ramps\": ["] + rampsText + ["  ]"] }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The targeting's conditions on one line, nil when it takes in everyone.
    private static func targetingText(_ targeting: Targeting) -> String? {
        guard !targeting.isEmpty else { return nil }
        var fields: [String] = []
        if !targeting.devices.isEmpty { fields.append("\"device\": [" + targeting.devices.map { JSONText.string($0.rawValue) }.joined(separator: ", ") + "]") }
        if let cohort = targeting.cohort { fields.append("\"visitor\": \(JSONText.string(cohort.rawValue))") }
        if !targeting.languages.isEmpty { fields.append("\"language\": [" + targeting.languages.map(JSONText.string).joined(separator: ", ") + "]") }
        if let chosen = targeting.chosenLayout { fields.append("\"chosenLayout\": \(JSONText.string(chosen))") }
        return "{" + fields.joined(separator: ", ") + "}"
    }
}

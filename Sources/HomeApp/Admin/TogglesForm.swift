import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP

/// The toggles as the admin form shows and posts them. Field names are the paths the file
/// loader names in its messages (`rollout.grid`, `experiments[0].groups[1].weight`), so a
/// message goes next to its field. What was typed is kept as typed; the form becomes JSON for
/// the loader, which alone decides what is valid. Shares are typed in percent (12.5) and go into the
/// file as fractions (0.125).
struct TogglesForm: Sendable {
    struct Group: Sendable {
        var name = ""
        var weight = ""
        /// A layout name, or "" for none.
        var layout = ""
        /// "true", "false", or "" to leave it to the onboarding toggle.
        var onboarding = ""
        /// The allowlist as typed: visitor ids separated by spaces, commas or lines.
        var visitors = ""
        /// Row name → "true", "false", or "" to leave it to the rows toggle.
        var rows: [String: String] = [:]
        var isBlank: Bool {
            name.isEmpty && weight.isEmpty && layout.isEmpty && onboarding.isEmpty && visitors.isEmpty
                && rows.values.allSatisfy(\.isEmpty)
        }
        var visitorIDs: [String] { visitors.split { $0 == "," || $0.isWhitespace }.map(String.init) }
    }

    /// An experiment's targeting and namespace as typed; empty fields set no condition.
    struct Targeting: Sendable {
        /// The device classes ticked.
        var devices: Set<String> = []
        /// "", "new" or "returning".
        var visitor = ""
        /// Language subtags separated by spaces or commas.
        var languages = ""
        /// "", "none" or a layout name.
        var chosenLayout = ""
        var namespace = ""
        var rangeFrom = ""
        var rangeTo = ""
        var languageList: [String] { languages.split { $0 == "," || $0.isWhitespace }.map(String.init) }
        var hasConditions: Bool { !devices.isEmpty || !visitor.isEmpty || !languages.isEmpty || !chosenLayout.isEmpty }
        var hasNamespace: Bool { !namespace.isEmpty || !rangeFrom.isEmpty || !rangeTo.isEmpty }
    }

    struct Experiment: Sendable {
        var name = ""
        var active = true
        var groups: [Group] = []
        var targeting = Targeting()
        var isBlank: Bool {
            name.trimmingWhitespace().isEmpty && groups.allSatisfy(\.isBlank)
                && !targeting.hasConditions && !targeting.hasNamespace
        }
    }

    struct Ramp: Sendable {
        var layout = ""
        /// Each step's time and share (in percent), as typed.
        var steps: [(at: String, share: String)] = []
        var isBlank: Bool { steps.allSatisfy { $0.at.isEmpty && $0.share.isEmpty } }
    }

    /// Most experiments and groups a post may carry; the rest is ignored (the loader has its own caps).
    static let maxRows = 64
    var defaultLayout = ""
    var onboarding = false
    /// Row name → "true", "false", or "" for shown (not named in the file).
    var rows: [String: String] = [:]
    /// Layout → share as typed, in percent.
    var rollout: [String: String] = [:]
    var experiments: [Experiment] = []
    var ramps: [Ramp] = []
    /// The version the form was drawn from.
    var base = 0
    var note = ""
    var previewVisitor = ""

    /// The form for `toggles`, drawn from version `base`.
    init(toggles: Toggles, base: Int) {
        defaultLayout = toggles.defaultLayout
        onboarding = toggles.onboarding
        rows = toggles.rows.mapValues { $0 ? "true" : "false" }
        rollout = toggles.rollout.mapValues(SharePercent.text)
        experiments = toggles.experiments.map { experiment in
            Experiment(name: experiment.name, active: experiment.active, groups: experiment.groups.map { group in
                Group(name: group.name, weight: TypedNumber.text(group.weight), layout: group.layout ?? "",
                      onboarding: group.onboarding.map { $0 ? "true" : "false" } ?? "",
                      visitors: group.visitors.joined(separator: "\n"), rows: group.rows.mapValues { $0 ? "true" : "false" })
            }, targeting: Targeting(devices: Set(experiment.targeting.devices.map(\.rawValue)),
                                    visitor: experiment.targeting.cohort?.rawValue ?? "",
                                    languages: experiment.targeting.languages.joined(separator: " "),
                                    chosenLayout: experiment.targeting.chosenLayout ?? "",
                                    namespace: experiment.namespace?.name ?? "",
                                    rangeFrom: experiment.namespace.map { SharePercent.text($0.lower) } ?? "",
                                    rangeTo: experiment.namespace.map { SharePercent.text($0.upper) } ?? ""))
        }
        ramps = toggles.ramps.map { ramp in
            Ramp(layout: ramp.layout, steps: ramp.steps.map { (Toggles.rampTime($0.at), SharePercent.text($0.share)) })
        }
        self.base = base
    }

    /// The form as posted.
    init(_ fields: FormFields, layouts: [String]) {
        // Each name's first value, looked up once: the rows below ask for thousands of names at most.
        var firsts: [String: String] = [:]
        for field in fields where field.filename == nil && firsts[field.name] == nil { firsts[field.name] = field.value }
        let form = firsts
        defaultLayout = form["defaultLayout"] ?? ""
        onboarding = form["onboarding"] == "true"
        for row in Toggles.rowNames { rows[row] = form["rows.\(row)"] ?? "" }
        for layout in layouts { rollout[layout] = form["rollout.\(layout)"]?.trimmingWhitespace() ?? "" }
        for index in 0..<Self.maxRows {
            let path = "experiments[\(index)]"
            guard let name = form["\(path).name"] else { break }
            var experiment = Experiment(name: name, active: form["\(path).active"] == "true")
            for groupIndex in 0..<Self.maxRows {
                let groupPath = "\(path).groups[\(groupIndex)]"
                guard let groupName = form["\(groupPath).name"] else { break }
                experiment.groups.append(Group(name: groupName, weight: form["\(groupPath).weight"]?.trimmingWhitespace() ?? "",
                                               layout: form["\(groupPath).layout"] ?? "",
                                               onboarding: form["\(groupPath).onboarding"] ?? "",
                                               visitors: (form["\(groupPath).visitors"] ?? "").trimmingWhitespaceAndNewlines(),
                                               rows: Dictionary(uniqueKeysWithValues: Toggles.rowNames.map {
                                                   ($0, form["\(groupPath).rows.\($0)"] ?? "")
                                               })))
            }
            let targeting = "\(path).targeting"
            for device in DeviceClass.allCases where form["\(targeting).device.\(device.rawValue)"] == "true" {
                experiment.targeting.devices.insert(device.rawValue)
            }
            experiment.targeting.visitor = form["\(targeting).visitor"] ?? ""
            experiment.targeting.languages = (form["\(targeting).language"] ?? "").trimmingWhitespace()
            experiment.targeting.chosenLayout = form["\(targeting).chosenLayout"] ?? ""
            experiment.targeting.namespace = (form["\(path).namespace.name"] ?? "").trimmingWhitespace()
            experiment.targeting.rangeFrom = (form["\(path).namespace.range.from"] ?? "").trimmingWhitespace()
            experiment.targeting.rangeTo = (form["\(path).namespace.range.to"] ?? "").trimmingWhitespace()
            if form["\(path).remove"] == "true" { experiment = Experiment() }
            experiments.append(experiment)
        }
        for index in 0..<Self.maxRows {
            let path = "ramps[\(index)]"
            guard let layout = form["\(path).layout"] else { break }
            var ramp = Ramp(layout: layout)
            for stepIndex in 0..<Self.maxRows {
                let stepPath = "\(path).steps[\(stepIndex)]"
                guard let at = form["\(stepPath).at"] else { break }
                ramp.steps.append((at.trimmingWhitespace(), form["\(stepPath).share"]?.trimmingWhitespace() ?? ""))
            }
            if form["\(path).remove"] == "true" { ramp = Ramp() }
            ramps.append(ramp)
        }
        base = Int(form["base"] ?? "") ?? -1
        note = (form["note"] ?? "").trimmingWhitespaceAndNewlines()
        previewVisitor = (form["previewVisitor"] ?? "").trimmingWhitespace()
    }

    /// The rows the JSON keeps: blank experiments and blank groups (a cleared name and nothing
    /// else) are dropped. Indexes are the form's, for naming fields.
    var keptExperiments: [(index: Int, experiment: Experiment, groups: [(index: Int, group: Group)])] {
        experiments.enumerated().filter { !$0.element.isBlank }.map { index, experiment in
            // A group whose name was cleared is removed, whatever its other fields still say.
            (index, experiment, experiment.groups.enumerated().filter { !$0.element.name.trimmingWhitespace().isEmpty }
                .map { ($0.offset, $0.element) })
        }
    }

    /// The toggles file this form stands for. A share or weight that is not a number goes in as
    /// text, so the loader says what it says of such a file (`shareProblem` says it first, in percent).
    var json: String {
        var root: [String: JSONValue] = ["defaultLayout": .string(defaultLayout), "onboarding": .bool(onboarding)]
        var shares: [String: JSONValue] = [:]
        for (layout, share) in rollout where !share.isEmpty { shares[layout] = Self.share(share) }
        root["rollout"] = .object(shares)
        if let switched = Self.rows(rows) { root["rows"] = switched }
        root["experiments"] = .array(keptExperiments.map { kept in
            var experiment: [String: JSONValue] = [
                "name": .string(kept.experiment.name), "active": .bool(kept.experiment.active),
                "groups": .array(kept.groups.map { _, group in
                    var members: [String: JSONValue] = ["name": .string(group.name)]
                    if !group.weight.isEmpty { members["weight"] = Self.number(group.weight) }
                    if !group.layout.isEmpty { members["layout"] = .string(group.layout) }
                    if group.onboarding == "true" || group.onboarding == "false" { members["onboarding"] = .bool(group.onboarding == "true") }
                    if !group.visitors.isEmpty { members["visitors"] = .array(group.visitorIDs.map(JSONValue.string)) }
                    if let switched = Self.rows(group.rows) { members["rows"] = switched }
                    return .object(members)
                })]
            let targeting = kept.experiment.targeting
            if targeting.hasConditions {
                var conditions: [String: JSONValue] = [:]
                let devices = DeviceClass.allCases.map(\.rawValue).filter(targeting.devices.contains)
                if !devices.isEmpty { conditions["device"] = .array(devices.map(JSONValue.string)) }
                if !targeting.visitor.isEmpty { conditions["visitor"] = .string(targeting.visitor) }
                if !targeting.languages.isEmpty { conditions["language"] = .array(targeting.languageList.map(JSONValue.string)) }
                if !targeting.chosenLayout.isEmpty { conditions["chosenLayout"] = .string(targeting.chosenLayout) }
                experiment["targeting"] = .object(conditions)
            }
            if targeting.hasNamespace {
                experiment["namespace"] = .object(["name": .string(targeting.namespace),
                                                   "range": .array([Self.share(targeting.rangeFrom), Self.share(targeting.rangeTo)])])
            }
            return .object(experiment)
        })
        let keptRamps = self.keptRamps
        if !keptRamps.isEmpty {
            root["ramps"] = .array(keptRamps.map { kept in
                .object(["layout": .string(kept.ramp.layout),
                         "steps": .array(kept.steps.map { _, step in .object(["at": .string(step.at), "share": Self.share(step.share)]) })])
            })
        }
        return JSONValue.object(root).text
    }

    /// The ramps the JSON keeps (a ramp with every step blank is none), with the form's indexes.
    var keptRamps: [(index: Int, ramp: Ramp, steps: [(index: Int, step: (at: String, share: String))])] {
        ramps.enumerated().filter { !$0.element.isBlank }.map { index, ramp in
            (index, ramp, ramp.steps.enumerated().filter { !($0.element.at.isEmpty && $0.element.share.isEmpty) }.map { ($0.offset, $0.element) })
        }
    }

    /// The form field a loader message is about: its `experiments[i]` and `groups[j]` (or
    /// `ramps[i]` and `steps[j]`) indexes counted among the kept rows, turned back into the form's.
    func formField(for field: String?) -> String? {
        guard let field else { return nil }
        if field.hasPrefix("ramps[") {
            return Self.formIndexes(field, "ramps[", ".steps[", kept: keptRamps.map { ($0.index, $0.steps.map { $0.index }) })
        }
        guard field.hasPrefix("experiments[") else { return field }
        return Self.formIndexes(field, "experiments[", ".groups[", kept: keptExperiments.map { ($0.index, $0.groups.map { $0.index }) })
    }

    /// `field` (`<outer>i]<inner>j]…`) with i and j, counted among the kept rows, turned into the form's indexes.
    private static func formIndexes(_ field: String, _ outer: String, _ inner: String, kept: [(index: Int, inner: [Int])]) -> String {
        var rest = Substring(field.dropFirst(outer.count))
        guard let close = rest.firstIndex(of: "]"), let index = Int(rest[..<close]), index < kept.count else { return field }
        rest = rest[rest.index(after: close)...]
        var result = "\(outer)\(kept[index].index)]"
        if rest.hasPrefix(inner), let innerClose = rest.firstIndex(of: "]"),
           let innerIndex = Int(rest[rest.index(rest.startIndex, offsetBy: inner.count)..<innerClose]), innerIndex < kept[index].inner.count {
            result += "\(inner)\(kept[index].inner[innerIndex])]"
            rest = rest[rest.index(after: innerClose)...]
        }
        return result + rest
    }

    /// The rows set to shown or not shown, or nil when none is; any other value goes in as
    /// text, so the loader says what is wrong with it.
    private static func rows(_ rows: [String: String]) -> JSONValue? {
        let set = rows.filter { !$0.value.isEmpty }
        guard !set.isEmpty else { return nil }
        return .object(set.mapValues { $0 == "true" ? .bool(true) : $0 == "false" ? .bool(false) : .string($0) })
    }

    /// A share typed in percent, as the file's fraction.
    private static func share(_ text: String) -> JSONValue {
        SharePercent.fraction(text).map(JSONValue.number) ?? .string(text)
    }

    private static func number(_ text: String) -> JSONValue {
        if let value = TypedNumber.decimal(text) { return .number(value) }
        return .string(text)
    }
}

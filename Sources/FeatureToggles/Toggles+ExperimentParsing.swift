import Basics
extension Toggles {
    /// Every event line names the visitor's group in each active experiment: these bound the line
    /// (1,000 experiments made each one 25 KB) and the rollups' experiment counts.
    static let maximumExperiments = 32
    static let maximumGroups = 8

    /// One entry of `experiments`: `{"name", "active"?, "groups": [{"name", "weight"?, "layout"?, "onboarding"?, "visitors"?, "rows"?}], "targeting"?, "namespace"?, "guardrail"?}`.
    static func experiment(_ value: JSONValue, at index: Int, _ fail: Fail) throws(TogglesError) -> Experiment {
        let path = "experiments[\(index)]"
        guard case .object(let members) = value else { throw fail(path, "must be an object with a name and groups (got \(value.kind))") }
        try unknownFields(members, known: ["name", "active", "groups", "targeting", "namespace", "guardrail"], path, fail)
        guard case .string(let name)? = members["name"], isLayoutName(name) else {
            throw fail("\(path).name", "must be a name of 1 to 64 lower-case letters, digits, '-' or '_' (got \(members["name"]?.kind ?? "nothing"))")
        }
        var active = true
        switch members["active"] {
        case nil: break
        case .bool(let on)?: active = on
        case let value?: throw fail("\(path).active", "must be true or false (got \(value.kind))")
        }
        guard case .array(let values)? = members["groups"], values.count >= 2 else {
            throw fail("\(path).groups", "must be a list of at least two groups (got \(members["groups"]?.kind ?? "nothing"))")
        }
        guard values.count <= maximumGroups else {
            throw fail("\(path).groups", "has \(values.count) groups; at most \(maximumGroups) are allowed")
        }
        var groups: [Group] = []
        for (groupIndex, value) in values.enumerated() {
            let group = try self.group(value, "\(path).groups[\(groupIndex)]", fail)
            guard !groups.contains(where: { $0.name == group.name }) else {
                throw fail("\(path).groups", "has two groups called \"\(group.name)\"")
            }
            for visitor in group.visitors {
                if let other = groups.first(where: { $0.visitors.contains(visitor) }) {
                    throw fail("\(path).groups[\(groupIndex)].visitors",
                               "lists \(visitor), which group \"\(other.name)\" lists too; a visitor is in one group of an experiment")
                }
            }
            groups.append(group)
        }
        let targeting = try self.targeting(members["targeting"], "\(path).targeting", fail)
        let namespace = try self.namespace(members["namespace"], "\(path).namespace", fail)
        var experiment = Experiment(name: name, active: active, groups: groups, targeting: targeting, namespace: namespace)
        experiment.guardrail = try guardrail(members["guardrail"], path, fail)
        return experiment
    }

    static func group(_ value: JSONValue, _ path: String, _ fail: Fail) throws(TogglesError) -> Group {
        guard case .object(let members) = value else { throw fail(path, "must be an object with a name (got \(value.kind))") }
        try unknownFields(members, known: ["name", "weight", "layout", "onboarding", "visitors", "rows"], path, fail)
        guard case .string(let name)? = members["name"], isGroupName(name) else {
            throw fail("\(path).name", "must be a name of 1 to 64 printable characters (got \(members["name"]?.kind ?? "nothing"))")
        }
        var group = Group(name: name)
        switch members["weight"] {
        case nil: break
        case .number(let weight)? where weight.isFinite && weight > 0 && weight <= 1e6: group.weight = weight
        case let value?: throw fail("\(path).weight", "must be a number greater than 0 (got \(value.kind))")
        }
        switch members["layout"] {
        case nil, .null?: break
        case .string(let layout)? where isLayoutName(layout): group.layout = layout
        case let value?: throw fail("\(path).layout", "must be a layout name of lower-case letters, digits, '-' or '_' (got \(value.kind))")
        }
        switch members["onboarding"] {
        case nil, .null?: break
        case .bool(let on)?: group.onboarding = on
        case let value?: throw fail("\(path).onboarding", "must be true or false (got \(value.kind))")
        }
        group.visitors = try allowlist(members["visitors"], "\(path).visitors", fail)
        if let rows = members["rows"], rows != .null { group.rows = try self.rows(rows, "\(path).rows", fail) }
        return group
    }

    /// The older `experiment` field: a name and a list of group names, equal weights, tagging only.
    static func legacyExperiment(_ members: [String: JSONValue], _ fail: Fail) throws(TogglesError) -> Experiment {
        try unknownFields(members, known: ["name", "groups"], "experiment", fail)
        guard case .string(let name)? = members["name"], isGroupName(name) else {
            throw fail("experiment.name", "must be a name of 1 to 64 printable characters (got \(members["name"]?.kind ?? "nothing"))")
        }
        let groupsReason = "must be a list of at least two different non-empty group names"
        guard case .array(let values)? = members["groups"] else {
            throw fail("experiment.groups", "\(groupsReason) (got \(members["groups"]?.kind ?? "nothing"))")
        }
        guard values.count <= maximumGroups else {
            throw fail("experiment.groups", "has \(values.count) groups; at most \(maximumGroups) are allowed")
        }
        var groups: [String] = []
        for value in values {
            guard case .string(let group) = value, isGroupName(group), !groups.contains(group) else {
                throw fail("experiment.groups", "\(groupsReason) (got \(value.kind) in the list)")
            }
            groups.append(group)
        }
        guard groups.count >= 2 else { throw fail("experiment.groups", "\(groupsReason) (got \(groups.count))") }
        return Experiment(name: name, groups: groups)
    }

    /// Names are unique; active experiments of one namespace take disjoint ranges; at most one
    /// active experiment sets the layout and one the onboarding notice, since assignments are
    /// independent and every group has a visitor in every other experiment's groups. Experiments
    /// of one namespace never share a visitor, so those may each set them.
    static func checkExperimentsTogether(_ experiments: [Experiment], _ fail: Fail) throws(TogglesError) {
        var seen: Set<String> = []
        for experiment in experiments where !seen.insert(experiment.name).inserted {
            throw fail("experiments", "has two experiments called \"\(experiment.name)\"")
        }
        for (index, experiment) in experiments.enumerated() where experiment.active {
            guard let range = experiment.namespace else { continue }
            for other in experiments[..<index] where other.active {
                guard let otherRange = other.namespace, range.overlaps(otherRange) else { continue }
                throw fail("experiments[\(index)].namespace.range",
                           "[\(decimal(range.lower)), \(decimal(range.upper))] overlaps "
                           + "[\(decimal(otherRange.lower)), \(decimal(otherRange.upper))] of \"\(other.name)\" "
                           + "in namespace \"\(range.name)\"; experiments of one namespace take ranges that do not overlap")
            }
        }
        let active = experiments.filter(\.active)
        for (what, sets) in [("layout", \Experiment.setsLayout), ("onboarding notice", \Experiment.setsOnboarding)] {
            let setting = active.filter { $0[keyPath: sets] }
            // Two that share a namespace never share a visitor: only those of different layers clash.
            var clashing: [String] = []
            for (index, experiment) in setting.enumerated() where clashing.isEmpty {
                for other in setting[..<index] where !sameLayer(experiment, other) {
                    clashing = [other.name, experiment.name]
                    break
                }
            }
            guard clashing.count > 1 else { continue }
            throw fail("experiments", "\(clashing.map { "\"\($0)\"" }.joined(separator: " and ")) are active and each sets the \(what), "
                       + "so a visitor in more than one would get several; stop all but one with \"active\": false")
        }
    }

    private static func sameLayer(_ one: Experiment, _ other: Experiment) -> Bool {
        guard let first = one.namespace, let second = other.namespace else { return false }
        return first.name == second.name
    }

    static func decimal(_ value: Double) -> String { JSONText.number(value) }

    static func unknownFields(_ members: [String: JSONValue], known: [String], _ path: String, _ fail: Fail) throws(TogglesError) {
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("\(path).\(unknown)", "is not a known field (known: \(known.joined(separator: ", ")))")
        }
    }

    /// Group names go into report properties and onto the operator pages: 1 to 64 characters, none
    /// of them an invisible control (a direction override would turn the page's text around it).
    static func isGroupName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && !name.unicodeScalars.contains(where: \.isInvisibleControl)
    }
}

import Basics

extension Toggles {
    /// Most visitor ids one group may list: an allowlist is for a team's own browsers, and each
    /// id is compared on every request of the experiment.
    static let maximumAllowlist = 100
    static let maximumLanguages = 20

    /// A group's `visitors`: a list of visitor ids (32 lower-case hex digits, the visitor cookie's value).
    static func allowlist(_ value: JSONValue?, _ path: String, _ fail: Fail) throws(TogglesError) -> [String] {
        switch value {
        case nil, .null?: return []
        case .array(let values)?:
            guard values.count <= maximumAllowlist else {
                throw fail(path, "lists \(values.count) visitors; at most \(maximumAllowlist) are allowed")
            }
            var ids: [String] = []
            for value in values {
                guard case .string(let id) = value, isVisitorID(id) else {
                    let shown = if case .string(let text) = value { "\"\(text.prefix(40))\"" } else { value.kind }
                    throw fail(path, "must list visitor ids of 32 lower-case hex digits, as in the visitor cookie (got \(shown))")
                }
                guard !ids.contains(id) else { throw fail(path, "lists \(id) twice") }
                ids.append(id)
            }
            return ids
        case let value?: throw fail(path, "must be a list of visitor ids (got \(value.kind))")
        }
    }

    /// `{"device": ["phone"], "visitor": "new", "language": ["de"], "chosenLayout": "none"}`, each optional.
    static func targeting(_ value: JSONValue?, _ path: String, _ fail: Fail) throws(TogglesError) -> Targeting {
        var targeting = Targeting()
        guard let value, value != .null else { return targeting }
        guard case .object(let members) = value else {
            throw fail(path, "must be an object of conditions, like {\"device\": [\"phone\"]} (got \(value.kind))")
        }
        try unknownFields(members, known: ["device", "visitor", "language", "chosenLayout"], path, fail)
        let devices = DeviceClass.allCases.map(\.rawValue)
        for name in try names(members["device"], "\(path).device", "device classes (\(devices.joined(separator: ", ")))", fail) {
            guard let device = DeviceClass(rawValue: name) else {
                throw fail("\(path).device", "names \"\(name.prefix(40))\", which is not a device class (\(devices.joined(separator: ", ")))")
            }
            targeting.devices.append(device)
        }
        switch members["visitor"] {
        case nil, .null?: break
        case .string(let cohort)? where VisitorTraits.Cohort(rawValue: cohort) != nil: targeting.cohort = VisitorTraits.Cohort(rawValue: cohort)
        case let value?: throw fail("\(path).visitor", "must be \"new\" or \"returning\" (got \(value.kind))")
        }
        let languages = try names(members["language"], "\(path).language", "language subtags such as \"en\" or \"de\"", fail)
        guard languages.count <= maximumLanguages else {
            throw fail("\(path).language", "lists \(languages.count) languages; at most \(maximumLanguages) are allowed")
        }
        for language in languages {
            guard (2...8).contains(language.utf8.count), language.utf8.allSatisfy({ (0x61...0x7A).contains($0) }) else {
                throw fail("\(path).language", "names \"\(language.prefix(40))\", which is not a primary language subtag of 2 to 8 lower-case letters, like \"en\"")
            }
        }
        targeting.languages = languages
        switch members["chosenLayout"] {
        case nil, .null?: break
        case .string(let layout)? where isLayoutName(layout): targeting.chosenLayout = layout
        case let value?:
            throw fail("\(path).chosenLayout", "must be a layout name, or \"none\" for visitors who chose no layout (got \(value.kind))")
        }
        return targeting
    }

    /// `{"name": "home", "range": [0, 0.5]}`.
    static func namespace(_ value: JSONValue?, _ path: String, _ fail: Fail) throws(TogglesError) -> Namespace? {
        guard let value, value != .null else { return nil }
        guard case .object(let members) = value else {
            throw fail(path, "must be an object with a name and a range, like {\"name\": \"home\", \"range\": [0, 0.5]} (got \(value.kind))")
        }
        try unknownFields(members, known: ["name", "range"], path, fail)
        guard case .string(let name)? = members["name"], isLayoutName(name) else {
            throw fail("\(path).name", "must be a name of 1 to 64 lower-case letters, digits, '-' or '_' (got \(members["name"]?.kind ?? "nothing"))")
        }
        guard case .array(let bounds)? = members["range"], bounds.count == 2,
              case .number(let lower) = bounds[0], case .number(let upper) = bounds[1],
              lower.isFinite, upper.isFinite, 0 <= lower, lower < upper, upper <= 1 else {
            throw fail("\(path).range", "must be two numbers [from, to] with 0 ≤ from < to ≤ 1, like [0, 0.5] (got \(members["range"].map { $0.text } ?? "nothing"))")
        }
        return Namespace(name: name, lower: lower, upper: upper)
    }

    /// A list of different non-empty strings (or nothing).
    private static func names(_ value: JSONValue?, _ path: String, _ what: String, _ fail: Fail) throws(TogglesError) -> [String] {
        switch value {
        case nil, .null?: return []
        case .array(let values)?:
            var names: [String] = []
            for value in values {
                guard case .string(let name) = value, !name.isEmpty else { throw fail(path, "must be a list of \(what) (got \(value.kind) in the list)") }
                guard !names.contains(name) else { throw fail(path, "names \"\(name.prefix(40))\" twice") }
                names.append(name)
            }
            guard !names.isEmpty else { throw fail(path, "must list at least one of \(what), or be left out") }
            return names
        case let value?: throw fail(path, "must be a list of \(what) (got \(value.kind))")
        }
    }

    /// The visitor cookie's form: 32 lower-case hex digits.
    static func isVisitorID(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

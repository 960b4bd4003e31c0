import Basics
import Foundation

extension Toggles {
    /// Parses and validates a toggles file's contents; `file` is used in error messages.
    public init(json: Data, file: String) throws(TogglesError) {
        func fail(_ field: String?, _ reason: String) -> TogglesError {
            TogglesError(file: file, field: field, reason: reason)
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: json)
        } catch {
            throw fail(nil, json.isEmpty ? "is empty" : "is not valid JSON\(Self.syntaxError(json))")
        }
        guard case .object(let fields) = root else { throw fail(nil, "must hold a JSON object, not \(root.kind)") }
        let known = ["defaultLayout", "gridRollout", "experiment", "onboarding"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail(unknown, "is not a known field (known: \(known.joined(separator: ", ")))")
        }
        self.init()
        switch fields["defaultLayout"] {
        case nil: break
        case .string(let name) where Self.isLayoutName(name): defaultLayout = name
        case let value?:
            throw fail("defaultLayout", "must be a layout name of lower-case letters, digits, '-' or '_' (got \(value.kind))")
        }
        switch fields["gridRollout"] {
        case nil: break
        case .number(let share) where share.isFinite && (0...1).contains(share): gridRollout = share
        case let value?: throw fail("gridRollout", "must be a number between 0 and 1 (got \(value.kind))")
        }
        switch fields["onboarding"] {
        case nil: break
        case .bool(let on): onboarding = on
        case let value?: throw fail("onboarding", "must be true or false (got \(value.kind))")
        }
        switch fields["experiment"] {
        case nil, .null?: break
        case .object(let members)?: experiment = try Self.experiment(members, fail)
        case let value?: throw fail("experiment", "must be an object with a name and groups, or null (got \(value.kind))")
        }
    }

    static func experiment(_ members: [String: JSONValue], _ fail: (String?, String) -> TogglesError) throws(TogglesError) -> Experiment {
        if let unknown = members.keys.sorted().first(where: { $0 != "name" && $0 != "groups" }) {
            throw fail("experiment.\(unknown)", "is not a known field (known: name, groups)")
        }
        guard case .string(let name)? = members["name"], !name.isEmpty else {
            throw fail("experiment.name", "must be a non-empty string (got \(members["name"]?.kind ?? "nothing"))")
        }
        let groupsReason = "must be a list of at least two different non-empty group names"
        guard case .array(let values)? = members["groups"] else {
            throw fail("experiment.groups", "\(groupsReason) (got \(members["groups"]?.kind ?? "nothing"))")
        }
        var groups: [String] = []
        for value in values {
            guard case .string(let group) = value, !group.isEmpty, !groups.contains(group) else {
                throw fail("experiment.groups", "\(groupsReason) (got \(value.kind) in the list)")
            }
            groups.append(group)
        }
        guard groups.count >= 2 else { throw fail("experiment.groups", "\(groupsReason) (got \(groups.count))") }
        return Experiment(name: name, groups: groups)
    }

    /// Layout names as the app registers them: `[a-z0-9_-]`, starting with a letter, at most 64.
    static func isLayoutName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// Where the JSON is broken, e.g. ` (Invalid value around character 22)`, or nothing if unknown.
    static func syntaxError(_ json: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
            return ""
        } catch {
            guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return "" }
            return " (\(detail.hasSuffix(".") ? String(detail.dropLast()) : detail))"
        }
    }
}

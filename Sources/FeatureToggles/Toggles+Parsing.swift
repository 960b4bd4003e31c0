import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Toggles {
    typealias Fail = (String?, String) -> TogglesError

    /// Parses and validates a toggles file's contents; `file` is used in error messages.
    public init(json: Data, file: String) throws(TogglesError) {
        func fail(_ field: String?, _ reason: String) -> TogglesError {
            TogglesError(file: file, field: field, reason: reason)
        }
        let root: JSONValue
        do {
            root = try JSONValue(reading: json)
        } catch {
            throw fail(nil, json.isEmpty ? "is empty" : "is not valid JSON\(error)")
        }
        guard case .object(let fields) = root else { throw fail(nil, "must hold a JSON object, not \(root.kind)") }
        let known = ["defaultLayout", "rollout", "gridRollout", "experiments", "experiment", "onboarding", "ramps", "rows"]
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
        switch (fields["rollout"], fields["gridRollout"]) {
        case (nil, nil): break
        case (let value?, nil): rollout = try Self.rollout(value, fail)
        case (nil, .number(let share)?) where share.isFinite && (0...1).contains(share): rollout = share > 0 ? ["grid": share] : [:]
        case (nil, let value?): throw fail("gridRollout", "must be a number between 0 and 1 (got \(value.kind))")
        case (_?, _?): throw fail("gridRollout", "is the older form of rollout: give {\"rollout\": {\"grid\": share}} alone")
        }
        switch fields["onboarding"] {
        case nil: break
        case .bool(let on): onboarding = on
        case let value?: throw fail("onboarding", "must be true or false (got \(value.kind))")
        }
        switch fields["experiments"] {
        case nil, .null?: break
        case .array(let values)?:
            guard values.count <= Self.maximumExperiments else {
                throw fail("experiments", "has \(values.count) experiments; at most \(Self.maximumExperiments) are allowed "
                           + "(each event carries the visitor's group in every active one)")
            }
            for (index, value) in values.enumerated() { experiments.append(try Self.experiment(value, at: index, fail)) }
        case let value?: throw fail("experiments", "must be a list of experiments (got \(value.kind))")
        }
        switch fields["experiment"] {
        case nil, .null?: break
        case .object(let members)?: experiments.append(try Self.legacyExperiment(members, fail))
        case let value?: throw fail("experiment", "must be an object with a name and groups, or null (got \(value.kind))")
        }
        try Self.checkExperimentsTogether(experiments, fail)
        try Self.checkRowExperiments(experiments, fail)
        switch fields["rows"] {
        case nil, .null?: break
        case let value?: rows = try Self.rows(value, "rows", fail)
        }
        switch fields["ramps"] {
        case nil, .null?: break
        case let value?: ramps = try Self.ramps(value, rollout: rollout, fail)
        }
    }

    /// `{"grid": 0.1, "compact": 0.05}`: layout names to shares that add up to at most 1.
    static func rollout(_ value: JSONValue, _ fail: Fail) throws(TogglesError) -> [String: Double] {
        guard case .object(let members) = value else {
            throw fail("rollout", "must be an object of layout names and shares, like {\"grid\": 0.1} (got \(value.kind))")
        }
        var shares: [String: Double] = [:]
        for (layout, share) in members.sorted(by: { $0.key < $1.key }) {
            guard isLayoutName(layout) else {
                throw fail("rollout", "must name layouts of lower-case letters, digits, '-' or '_' (got \"\(layout.prefix(40))\")")
            }
            guard case .number(let number) = share, number.isFinite, (0...1).contains(number) else {
                throw fail("rollout.\(layout)", "must be a number between 0 and 1 (got \(share.kind))")
            }
            if number > 0 { shares[layout] = number }
        }
        let total = shares.values.reduce(0, +)
        guard total <= 1 + 1e-9 else {
            // Rounded: a sum of decimal shares in binary reads 1.2999999999999998.
            throw fail("rollout", "shares add up to \(JSONText.rounded(total)); they must add up to at most 1")
        }
        return shares
    }

    /// Checks every layout the toggles name against the layouts the app has (`known`), in file order.
    public func checkLayouts(_ known: [String], file: String) throws(TogglesError) {
        for (field, layout) in layoutReferences where !known.contains(layout) {
            throw TogglesError(file: file, field: field,
                               reason: "names the layout \"\(layout)\", which this app does not have (layouts: \(known.joined(separator: ", ")))")
        }
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
}

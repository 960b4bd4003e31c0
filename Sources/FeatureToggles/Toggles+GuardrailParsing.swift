import Basics

extension Toggles {
    /// How far an experiment's groups may rise above the first group, in absolute shares of
    /// visitors, before the report page warns: visitors shown an error page (`errors`) and
    /// visitors who left without a selection (`noSelection`). 0.01 is one percentage point.
    public struct Guardrail: Sendable, Equatable {
        public var errors: Double
        public var noSelection: Double

        /// What an experiment without a `guardrail` field gets.
        public static let standard = Guardrail(errors: 0.01, noSelection: 0.05)

        public init(errors: Double, noSelection: Double) {
            self.errors = errors
            self.noSelection = noSelection
        }
    }

    /// `experiments[].guardrail`: `{"errors": 0.01, "noSelection": 0.05}`, each a share between 0
    /// and 1, either may be left out (then its standard margin).
    static func guardrail(_ value: JSONValue?, _ path: String, _ fail: Fail) throws(TogglesError) -> Guardrail? {
        guard let value else { return nil }
        let path = path + ".guardrail"
        guard case .object(let members) = value else {
            throw fail(path, "must be an object like {\"errors\": 0.01, \"noSelection\": 0.05} (got \(value.kind))")
        }
        try unknownFields(members, known: ["errors", "noSelection"], path, fail)
        var guardrail = Guardrail.standard
        for (field, keyPath) in [("errors", \Guardrail.errors), ("noSelection", \Guardrail.noSelection)] {
            switch members[field] {
            case nil: break
            case .number(let margin)? where margin.isFinite && (0...1).contains(margin): guardrail[keyPath: keyPath] = margin
            case let value?:
                throw fail("\(path).\(field)", "must be a share of visitors between 0 and 1, such as 0.01 for one point (got \(value.kind))")
            }
        }
        return guardrail
    }

    /// The field as the toggles' text writes it, for an experiment that set one.
    static func guardrailText(_ guardrail: Guardrail) -> String {
        "{\"errors\": \(JSONText.number(guardrail.errors)), \"noSelection\": \(JSONText.number(guardrail.noSelection))}"
    }
}

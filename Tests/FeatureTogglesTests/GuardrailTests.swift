import Foundation
import Testing

@testable import FeatureToggles

/// `experiments[].guardrail`: the margins read, the standard ones without it, a bad one refused
/// with the field and the reason, and the field kept when the toggles are written back.
@Suite struct GuardrailTests {
    static func toggles(_ guardrail: String) throws(TogglesError) -> Toggles {
        try Toggles(json: Data(#"{"experiments": [{"name": "e", "groups": [{"name": "a"}, {"name": "b"}]\#(guardrail)}]}"#.utf8),
                    file: "t.json")
    }

    @Test func theMarginsAreReadAndTheStandardOnesApplyWithoutThem() throws {
        let set = try Self.toggles(#", "guardrail": {"errors": 0.02}"#).experiments[0]
        #expect(set.guardrail == Toggles.Guardrail(errors: 0.02, noSelection: 0.05) && set.guardrailMargins.errors == 0.02)
        let standard = try Self.toggles("").experiments[0]
        #expect(standard.guardrail == nil && standard.guardrailMargins == .standard)
        let written = try Toggles(json: Data(try Self.toggles(#", "guardrail": {"errors": 0.02, "noSelection": 0.1}"#).jsonText.utf8),
                                  file: "t.json")
        #expect(written.experiments[0].guardrail == Toggles.Guardrail(errors: 0.02, noSelection: 0.1))
    }

    @Test(arguments: [
        (#", "guardrail": 0.01"#, "experiments[0].guardrail must be an object"),
        (#", "guardrail": {"errors": 2}"#, "experiments[0].guardrail.errors must be a share of visitors between 0 and 1"),
        (#", "guardrail": {"noSelection": "5%"}"#, "experiments[0].guardrail.noSelection must be a share"),
        (#", "guardrail": {"crashes": 0.1}"#, "experiments[0].guardrail.crashes is not a known field"),
    ])
    func aBadGuardrailIsRefusedWithTheFieldAndTheReason(guardrail: String, message: String) {
        do {
            _ = try Self.toggles(guardrail)
            Issue.record("accepted \(guardrail)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }
}

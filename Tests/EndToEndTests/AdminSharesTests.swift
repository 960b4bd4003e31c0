import Foundation
import Testing
import TestSupport

/// `/admin`'s shares (rollout, ramp steps, namespace ranges) typed in percent.
@Suite struct AdminSharesTests {
    let admin: AdminTogglesTests

    init() throws { admin = try AdminTogglesTests() }

    /// Every share is typed in percent, as in the experiment actions' form: the file keeps its
    /// fractions, the form drawn from it shows them as typed (no binary noise like 56.99999999999999),
    /// and a rule broken is said in percent beside the field, which keeps what was typed.
    @Test func sharesAreTypedInPercentAndTheFileKeepsFractions() throws {
        let server = try admin.start()
        let browser = Browser(port: server.port)
        let later = AdminRampTests.time(Date().addingTimeInterval(3600))
        let applied = try AdminTogglesTests.apply([
            "rollout.grid": "7", "ramps[0].layout": "grid", "ramps[0].steps[0].at": later, "ramps[0].steps[0].share": "29",
            "experiments[0].name": "split", "experiments[0].groups[0].name": "a", "experiments[0].groups[1].name": "b",
            "experiments[0].namespace.name": "home", "experiments[0].namespace.range.from": "14",
            "experiments[0].namespace.range.to": "57",
        ], note: "in percent", with: browser)
        #expect(applied.status == 303, "\(applied.text)")
        let file = try String(contentsOfFile: admin.togglesPath, encoding: .utf8)
        #expect(file.contains(#""rollout": {"grid": 0.07}"#) && file.contains(#""range": [0.14, 0.57]"#)
                    && file.contains(#""share": 0.29}"#), "\(file)")
        let (_, form) = try browser.page("/admin")
        let shown = { (name: String) in form.first { $0["name"] == name }?["value"] }
        #expect(shown("rollout.grid") == "7" && shown("ramps[0].steps[0].share") == "29", "\(form)")
        #expect(shown("experiments[0].namespace.range.from") == "14" && shown("experiments[0].namespace.range.to") == "57")
        #expect(form.first { $0["id"] == "field-rollout-hint" }?.text.contains("in percent, from 0 to 100") == true)
        let again = try browser.press(try AdminTogglesTests.button("Review the difference", in: form), setting: [:])
        #expect(again.status == 200 && !again.text.contains("admin-diff__added"), "the form as drawn changes nothing: \(again.text)")

        let cases: [([String: String], String, String)] = [
            (["rollout.grid": "150"], "field-rollout-grid-error", "must be a percent from 0 to 100 (got \"150\")"),
            (["rollout.grid": "60", "rollout.list": "50"], "field-rollout-error",
             "shares add up to 110%; they must add up to at most 100%"),
            (["ramps[0].steps[0].share": "0.5%"], "field-ramps-0-steps-0-share-error", "must be a percent from 0 to 100 (got \"0.5%\")"),
            (["rollout.list": "80"], "field-ramps-0-steps-0-share-error",
             "and the other layouts' rollout shares would add up to more than 100%"),
            (["experiments[0].namespace.range.from": "57", "experiments[0].namespace.range.to": "14"],
             "field-experiments-0-namespace-range-error", "must be two percents with 0 ≤ from < to ≤ 100"),
            // Forms Swift's parsers read that no person types for a share or a weight.
            (["rollout.grid": "1e1"], "field-rollout-grid-error", "must be a percent from 0 to 100 (got \"1e1\")"),
            (["rollout.grid": "+5"], "field-rollout-grid-error", "must be a percent from 0 to 100 (got \"+5\")"),
            (["ramps[0].steps[0].share": "nan"], "field-ramps-0-steps-0-share-error", "must be a percent from 0 to 100 (got \"nan\")"),
            (["experiments[0].namespace.range.to": "0x1p5"], "field-experiments-0-namespace-range-error",
             "must be two percents with 0 ≤ from < to ≤ 100"),
            (["experiments[0].groups[1].weight": "1e2"], "field-experiments-0-groups-1-weight-error",
             "must be a number greater than 0 in digits, like 2 or 1.5 (got \"1e2\")"),
            (["experiments[0].groups[0].weight": "inf"], "field-experiments-0-groups-0-weight-error",
             "must be a number greater than 0 in digits, like 2 or 1.5 (got \"inf\")"),
        ]
        for (values, errorID, words) in cases {
            let refused = try browser.press(try AdminTogglesTests.button("Review the difference", in: form), setting: values)
            #expect(refused.status == 400, "\(values)")
            let page = try HTMLDocument.parse(refused.text)
            #expect(page.first { $0["id"] == errorID }?.text.hasPrefix(words) == true, "\(values): \(refused.text)")
            for (name, typed) in values { #expect(page.first { $0["name"] == name }?["value"] == typed, "\(name) kept as typed") }
        }
    }
}

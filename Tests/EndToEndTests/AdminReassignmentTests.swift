import Foundation
import Testing
import TestSupport

/// `/admin`'s review of a change that moves a running experiment's visitors to other groups.
@Suite struct AdminReassignmentTests {
    let admin: AdminTogglesTests

    init() throws { admin = try AdminTogglesTests() }

    /// New weights for a running experiment move some of its visitors: the review says how many.
    @Test func theReviewSaysHowManyVisitorsNewWeightsMove() throws {
        try #"{"defaultLayout": "list", "onboarding": false, "experiments": [{"name": "hero", "groups": [{"name": "a", "weight": 4}, {"name": "b", "weight": 3}]}]}"#
            .write(toFile: admin.togglesPath, atomically: true, encoding: .utf8)
        let server = try admin.start()
        let browser = Browser(port: server.port)
        let (_, form) = try browser.page("/admin")
        let review = try browser.press(try AdminTogglesTests.button("Review the difference", in: form), setting: ["experiments[0].groups[0].weight": "1"])
        let note = try HTMLDocument.parse(review.text).first { $0["data-reassign"] != nil }?.text ?? ""
        #expect(note.contains(#"experiment "hero" is running"#) && note.contains("about 32% of its visitors"), "\(note)")
        let unmoved = try browser.press(try AdminTogglesTests.button("Review the difference", in: form), setting: ["onboarding": "true"])
        #expect(try HTMLDocument.parse(unmoved.text).first { $0["data-reassign"] != nil } == nil)
    }

    /// Stopped, then started again with other weights: the visitors counted before the stop are
    /// moved just the same, and the review says so, naming the version it last ran in; started again
    /// as it last ran, it says nothing.
    @Test func theReviewSaysHowManyVisitorsARestartWithOtherWeightsMoves() throws {
        try #"{"defaultLayout": "list", "onboarding": false, "experiments": [{"name": "hero", "groups": [{"name": "a", "weight": 4}, {"name": "b", "weight": 3}]}]}"#
            .write(toFile: admin.togglesPath, atomically: true, encoding: .utf8)
        let server = try admin.start()
        let browser = Browser(port: server.port)
        #expect(try AdminTogglesTests.apply(["experiments[0].active": ""], note: "stop hero", with: browser).status == 303)
        let (_, form) = try browser.page("/admin")
        let review = try browser.press(try AdminTogglesTests.button("Review the difference", in: form),
                                       setting: ["experiments[0].active": "true", "experiments[0].groups[0].weight": "1"])
        let note = try HTMLDocument.parse(review.text).first { $0["data-reassign"] != nil }?.text ?? ""
        #expect(note.hasPrefix(#"Note: experiment "hero" last ran in version 1 with other groups or weights: starting it again "#
                               + "with these puts about 32% of the visitors counted then in another group than before"), "\(note)")
        let asItRan = try browser.press(try AdminTogglesTests.button("Review the difference", in: form), setting: ["experiments[0].active": "true"])
        #expect(try HTMLDocument.parse(asItRan.text).first { $0["data-reassign"] != nil } == nil)
    }
}

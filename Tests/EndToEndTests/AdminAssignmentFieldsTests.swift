import Foundation
import Testing
import TestSupport

/// `/admin`'s fields for allowlists, targeting and namespaces: each broken rule comes back with
/// the loader's message beside its field, and a good form applies them to the file.
@Suite(.serialized) final class AdminAssignmentFieldsTests {
    static let listedID = "fedcba9876543210fedcba9876543210"
    let folder: TemporaryDirectory
    let togglesPath: String

    init() throws {
        folder = try TemporaryDirectory("admin-assignment")
        togglesPath = try folder.write("toggles.json", #"""
            {"experiments": [{"name": "first", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}
            """#)
    }

    func start() throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--toggles", togglesPath, "--report-log", folder.path("reports")])
    }

    static func review(_ values: [String: String], with browser: Browser) throws -> HTTPResponse {
        let (_, form) = try browser.page("/admin")
        let button = try #require(form.all("button").first { $0.text == "Review the difference" })
        return try browser.press(button, setting: values)
    }

    @Test func eachBrokenRuleIsShownBesideItsField() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let cases: [([String: String], String, String)] = [
            (["experiments[0].groups[0].visitors": "not-a-visitor"], "field-experiments-0-groups-0-visitors-error",
             "must list visitor ids of 32 lower-case hex digits"),
            (["experiments[0].groups[0].visitors": Self.listedID, "experiments[0].groups[1].visitors": Self.listedID],
             "field-experiments-0-groups-1-visitors-error", "which group \u{201C}a\u{201D} lists too".replacingOccurrences(of: "\u{201C}", with: "\"").replacingOccurrences(of: "\u{201D}", with: "\"")),
            (["experiments[0].groups[0].visitors": (0..<101).map { String(format: "%032x", $0) }.joined(separator: "\n")],
             "field-experiments-0-groups-0-visitors-error", "lists 101 visitors; at most 100 are allowed"),
            (["experiments[0].targeting.language": "English"], "field-experiments-0-targeting-language-error", "not a primary language subtag"),
            (["experiments[0].namespace.name": "home", "experiments[0].namespace.range.from": "60", "experiments[0].namespace.range.to": "20"],
             "field-experiments-0-namespace-range-error", "0 ≤ from < to ≤ 100"),
            (["experiments[0].namespace.name": "Home Page", "experiments[0].namespace.range.from": "0", "experiments[0].namespace.range.to": "100"],
             "field-experiments-0-namespace-name-error", "must be a name of 1 to 64 lower-case letters"),
        ]
        for (values, errorID, words) in cases {
            let refused = try Self.review(values, with: browser)
            #expect(refused.status == 400, "\(values)")
            let message = try HTMLDocument.parse(refused.text).first { $0["id"] == errorID }
            #expect(message?.text.contains(words) == true, "\(values): \(message?.text ?? refused.text)")
        }
        // Two running experiments of one namespace with overlapping ranges: refused beside the second's range.
        let overlap = try Self.review([
            "experiments[0].namespace.name": "home", "experiments[0].namespace.range.from": "0", "experiments[0].namespace.range.to": "60",
            "experiments[1].name": "second", "experiments[1].active": "true", "experiments[1].groups[0].name": "x",
            "experiments[1].groups[1].name": "y", "experiments[1].namespace.name": "home",
            "experiments[1].namespace.range.from": "50", "experiments[1].namespace.range.to": "100",
        ], with: browser)
        #expect(overlap.status == 400)
        #expect(try HTMLDocument.parse(overlap.text).first { $0["id"] == "field-experiments-1-namespace-range-error" }?.text
                    .contains("50–100% overlaps 0–60% of \"first\" in namespace \"home\"") == true, "\(overlap.text)")
    }

    @Test func aGoodFormAppliesTargetingNamespaceAndAllowlist() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let review = try Self.review([
            "experiments[0].groups[1].visitors": Self.listedID, "experiments[0].targeting.device.phone": "true",
            "experiments[0].targeting.device.tablet": "true", "experiments[0].targeting.visitor": "returning",
            "experiments[0].targeting.language": "de, fr", "experiments[0].targeting.chosenLayout": "none",
            "experiments[0].namespace.name": "home", "experiments[0].namespace.range.from": "0",
            "experiments[0].namespace.range.to": "50",
        ], with: browser)
        #expect(review.status == 200, "\(review.text)")
        let reviewed = try HTMLDocument.parse(review.text)
        let apply = try #require(reviewed.all("button").first { $0.text == "Apply" })
        let applied = try browser.press(apply, setting: ["note": "phones and tablets, half the home namespace"])
        #expect(applied.status == 303, "\(applied.text)")
        let file = try String(contentsOfFile: togglesPath, encoding: .utf8)
        #expect(file.contains(#""visitors": ["\#(Self.listedID)"]"#), "\(file)")
        #expect(file.contains(#""targeting": {"device": ["phone", "tablet"], "visitor": "returning", "language": ["de", "fr"], "chosenLayout": "none"}"#))
        #expect(file.contains(#""namespace": {"name": "home", "range": [0, 0.5]}"#))
        // The form drawn from the new version shows them again, and a review of it changes nothing.
        let (_, form) = try browser.page("/admin")
        #expect(form.first { $0["name"] == "experiments[0].groups[1].visitors" }?.text == Self.listedID)
        #expect(form.first { $0["name"] == "experiments[0].targeting.device.tablet" }?["checked"] != nil)
        let again = try browser.press(try #require(form.all("button").first { $0.text == "Review the difference" }), setting: [:])
        #expect(again.status == 200)
        #expect(!again.text.contains("admin-diff__added"), "\(again.text)")
    }

    /// A rollout beside a layout experiment is accepted but said aloud on the review, and with
    /// targeting the note says who gets the rollout now.
    @Test func theReviewSaysWhomARolloutReachesBesideATargetedLayoutExperiment() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let review = try Self.review(["rollout.grid": "20", "experiments[0].targeting.device.phone": "true",
                                      "previewVisitor": Self.listedID], with: browser)
        #expect(review.status == 200, "\(review.text)")
        let assumed = try HTMLDocument.parse(review.text).first { $0["data-preview-assumes"] != nil }?.text
        #expect(assumed == "Targeting reads what each request carries, so this preview takes the visitor as a new desktop visitor "
                + "with no first language and no layout of their own choosing.", "the preview says whom it shows")
        let note = try HTMLDocument.parse(review.text).first { $0["data-interplay"] != nil }?.text
        #expect(note == "Note: experiment \"first\" sets the layout of every visitor it takes in, so the rollout does not apply to them "
                + "while it is active; visitors its targeting or namespace range leave out get the rollout now; once it stops, "
                + "visitors get list 80%, grid 20%.", "\(review.text)")
    }
}

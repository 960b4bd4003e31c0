import Foundation
import Testing
import TestSupport

/// A scheduled ramp made in `/admin` steps on time by itself (a short schedule: seconds), each
/// step a version by "ramp"; stopping it in the form removes the steps to come.
@Suite(.serialized) final class AdminRampTests {
    let folder: TemporaryDirectory
    let togglesPath: String

    init() throws {
        folder = try TemporaryDirectory("admin-ramp")
        togglesPath = try folder.write("toggles.json", #"{"defaultLayout": "list", "onboarding": false}"#)
    }

    func start() throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--toggles", togglesPath, "--report-log", folder.path("reports")])
    }

    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    @Test func aRampMadeInTheFormStepsOnTimeToEveryVisitor() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        // Whole seconds: the first step two to three seconds ahead, the last three more (apart, so the
        // watcher, once a second, takes them one by one).
        let first = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3).rounded(.down))
        let applied = try AdminTogglesTests.apply([
            "ramps[0].layout": "grid",
            "ramps[0].steps[0].at": Self.time(first), "ramps[0].steps[0].share": "50",
            "ramps[0].steps[1].at": Self.time(first.addingTimeInterval(3)), "ramps[0].steps[1].share": "100",
        ], note: "ramp the grid", with: browser)
        #expect(applied.status == 303, "\(applied.text)")
        #expect(try browser.get("/admin").text.contains("Next ramp step: grid to 50% at"))
        try eventually("the last step is a version by the ramp", timeout: 10) {
            try browser.get("/admin/history").text.contains("by <span class=\"admin__who\">ramp</span>: ramp step: grid to 100%")
        }
        #expect(try browser.get("/admin/history").text.contains("by <span class=\"admin__who\">ramp</span>: ramp step: grid to 50%"),
                "the first step was one too")
        for _ in 0..<5 { #expect(try AdminTogglesTests.homeLayout(server) == "grid", "every new visitor gets the grid") }
        let file = try String(contentsOfFile: togglesPath, encoding: .utf8)
        #expect(file.contains("\"rollout\": {\"grid\": 1}") && !file.contains("ramps"), "\(file)")
        #expect(!(try browser.get("/admin").text.contains("Next ramp step")))
    }

    @Test func stoppingARampRemovesTheStepsToCome() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let later = Self.time(Date().addingTimeInterval(3600))
        #expect(try AdminTogglesTests.apply(["ramps[0].layout": "grid", "ramps[0].steps[0].at": later, "ramps[0].steps[0].share": "50"],
                                            note: "ramp in an hour", with: browser).status == 303)
        #expect(try browser.get("/admin").text.contains("Next ramp step: grid to 50%"))
        #expect(try AdminTogglesTests.apply(["ramps[0].remove": "true"], note: "stop the ramp", with: browser).status == 303)
        #expect(!(try browser.get("/admin").text.contains("Next ramp step")))
        #expect(!(try String(contentsOfFile: togglesPath, encoding: .utf8).contains("ramps")))
    }
}

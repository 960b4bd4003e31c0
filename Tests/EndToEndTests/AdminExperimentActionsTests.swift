import Foundation
import Testing
import TestSupport

/// "Stop" and "Roll out this group's layout" from `/reports/experiments`: a confirmation with the
/// difference, then one new version (the rollout set and the experiment stopped).
@Suite(.serialized) final class AdminExperimentActionsTests {
    let folder: TemporaryDirectory
    let togglesPath: String

    init() throws {
        folder = try TemporaryDirectory("admin-experiment")
        togglesPath = try folder.write("toggles.json", DatabaseInstances.listOrGridToggles)
    }

    func start() throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--toggles", togglesPath, "--report-log", folder.path("reports")])
    }

    /// The link labelled `label` on the experiments page, followed: the confirmation page.
    func confirmation(_ label: String, share: String? = nil, with browser: Browser) throws -> HTMLElement {
        let (_, results) = try browser.page("/reports/experiments")
        let link = try #require(results.all("a").first { $0.text == label }, "no link \(label)")
        var (page, html) = try browser.page(HTMLDocument.decode(try #require(link["href"])))
        #expect(page.status == 200)
        if let share {
            let show = try #require(html.all("button").first { $0.text == "Show the difference for this share" })
            let shown = try browser.press(show, setting: ["share": share])
            #expect(shown.status == 200)
            html = try HTMLDocument.parse(shown.text)
            page = shown
        }
        pages.append(html)
        return html
    }

    var pages: [HTMLElement] = []

    @Test func rollingOutAGroupsLayoutStopsTheExperimentAndSetsTheShare() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let html = try confirmation("Roll out group b's layout (grid)…", share: "40", with: browser)
        let diff = try #require(html.first { $0.hasClass("admin-diff") }).text
        // The text with its spaces collapsed, as the parser gives it.
        #expect(diff.contains("+ \"rollout\": {\"grid\": 0.4},") && diff.contains("+ \"active\": false,"), "\(diff)")
        let button = try #require(html.all("button").first { $0.text == "Roll out and stop the experiment" })
        let applied = try browser.press(button, setting: ["note": "b wins"])
        #expect(applied.status == 303 && applied.header("Location") == "/admin?applied=2", "\(applied.text)")
        let file = try String(contentsOfFile: togglesPath, encoding: .utf8)
        #expect(file.contains("\"rollout\": {\"grid\": 0.4}") && file.contains("\"active\": false"))
        #expect(try browser.get("/reports/experiments").text.contains("<span class=\"experiment__status\">stopped</span>"))
        #expect(try browser.get("/admin/history").text.contains(": b wins"))
    }

    /// A share typed after the difference was drawn is not applied unseen: the page is drawn again
    /// for it, and the next press applies what it shows.
    @Test func aShareTypedAfterTheDifferenceIsShownBeforeItIsApplied() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let html = try confirmation("Roll out group b's layout (grid)…", with: browser)
        let button = try #require(html.all("button").first { $0.text == "Roll out and stop the experiment" })
        let redrawn = try browser.press(button, setting: ["share": "50", "note": "half first"])
        #expect(redrawn.status == 409 && redrawn.text.contains("the share was changed to 50% after the difference was drawn for 100%"),
                "\(redrawn.text)")
        #expect(!(try String(contentsOfFile: togglesPath, encoding: .utf8)).contains("\"rollout\": {\"grid\""))
        let again = try HTMLDocument.parse(redrawn.text)
        #expect(try #require(again.first { $0.hasClass("admin-diff") }).text.contains("+ \"rollout\": {\"grid\": 0.5},"))
        #expect(again.first { $0["name"] == "note" }?["value"] == "half first", "the note typed is kept")
        let confirm = try #require(again.all("button").first { $0.text == "Roll out and stop the experiment" })
        #expect(try browser.press(confirm).status == 303)
        #expect(try String(contentsOfFile: togglesPath, encoding: .utf8).contains("\"rollout\": {\"grid\": 0.5}"))
    }

    /// A share is typed in digits: forms Swift would read but no person means are refused.
    @Test func aShareThatIsNoDecimalAsTypedIsRefused() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let html = try confirmation("Roll out group b's layout (grid)…", with: browser)
        let show = try #require(html.all("button").first { $0.text == "Show the difference for this share" })
        for share in ["1e1", "+50", "nan", "0x1p5", "50%"] {
            let refused = try browser.press(show, setting: ["share": share])
            #expect(refused.status == 400, "\(share)")
            let message = try HTMLDocument.parse(refused.text).first { $0.hasClass("error-screen__message") }?.text
            #expect(message == "The share must be a number from 0 to 100.", "\(share)")
        }
        #expect(try browser.press(show, setting: ["share": "12.5"]).status == 200)
    }

    @Test func stoppingNeedsANoteAndAStaleConfirmationConflicts() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let html = try confirmation("Stop this experiment…", with: browser)
        let button = try #require(html.all("button").first { $0.text == "Stop the experiment" })
        #expect(try browser.press(button, setting: ["note": ""]).status == 400)
        #expect(try AdminTogglesTests.apply(["onboarding": "true"], note: "meanwhile", with: browser).status == 303)
        // Drawn from version 1: the confirmation again, over version 2, with the note kept.
        let stale = try browser.press(button, setting: ["note": "stop it"])
        #expect(stale.status == 409 && stale.text.contains("version 2 is in force now"), "\(stale.text)")
        let again = try HTMLDocument.parse(stale.text)
        #expect(again.first { $0["name"] == "note" }?["value"] == "stop it", "the note typed is kept")
        #expect(again.first { $0["name"] == "base" }?["value"] == "2")
        let fresh = try #require(again.all("button").first { $0.text == "Stop the experiment" })
        #expect(try browser.press(fresh).status == 303)
        #expect(try String(contentsOfFile: togglesPath, encoding: .utf8).contains("\"active\": false"))
        // Stopped already: the refusal leads back to the admin pages.
        let (stopped, page) = try browser.page("/admin/experiment?experiment=e&action=stop")
        #expect(stopped.status == 409 && stopped.text.contains("is stopped already"))
        #expect(page.all("a").contains { $0.text == "Back to the admin pages" && $0["href"] == "/admin" })
    }
}

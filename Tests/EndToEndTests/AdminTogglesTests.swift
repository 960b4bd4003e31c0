import Foundation
import Testing
import TestSupport

/// `/admin`: the toggles changed in a form become a version (file written, history kept, event
/// logged), a stale form gets a conflict, a broken rule its message, and rollback and hand edits
/// are versions too.
@Suite(.serialized) final class AdminTogglesTests {
    static let token = "a-report-token-long-enough"
    let folder: TemporaryDirectory
    let togglesPath: String

    init() throws {
        folder = try TemporaryDirectory("admin")
        togglesPath = try folder.write("toggles.json", #"{"defaultLayout": "list", "onboarding": false}"#)
    }

    func start(_ extra: [String] = []) throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--toggles", togglesPath, "--report-log", folder.path("reports")] + extra)
    }

    /// The form's button labelled `label` on `html`.
    static func button(_ label: String, in html: HTMLElement) throws -> HTMLElement {
        try #require(html.all("button").first { $0.text == label }, "no button \(label)")
    }

    /// Draws the form, reviews `values` and applies them with `note`; the apply's response.
    static func apply(_ values: [String: String], note: String, with browser: Browser) throws -> HTTPResponse {
        let (_, form) = try browser.page("/admin")
        let review = try browser.press(try button("Review the difference", in: form), setting: values)
        #expect(review.status == 200, "\(review.text)")
        let reviewed = try HTMLDocument.parse(review.text)
        return try browser.press(try button("Apply", in: reviewed), setting: ["note": note])
    }

    static func homeLayout(_ server: ServerProcess) throws -> String? {
        let home = try server.client.get("/").text
        return ["grid", "list"].first { home.contains("class=\"home-\($0)") }
    }

    @Test func anApplyChangesTheHomeWritesTheFileAndSurvivesARestart() throws {
        var server = try start()
        #expect(try Self.homeLayout(server) == "list")
        let browser = Browser(port: server.port)
        let (_, form) = try browser.page("/admin")
        let review = try browser.press(try Self.button("Review the difference", in: form),
                                       setting: ["defaultLayout": "grid", "previewVisitor": "0123456789abcdef0123456789abcdef"])
        #expect(review.status == 200)
        #expect(review.text.contains("<del class=\"admin-diff__removed\">-   &quot;defaultLayout&quot;: &quot;list&quot;,</del>"), "\(review.text)")
        #expect(review.text.contains("<ins class=\"admin-diff__added\">+   &quot;defaultLayout&quot;: &quot;grid&quot;,</ins>"))
        #expect(review.text.contains("<tr class=\"admin-preview__changed\"><th scope=\"row\">Layout</th><td>list</td><td>grid</td></tr>"))
        #expect(try Self.homeLayout(server) == "list", "a review applies nothing")
        let reviewed = try HTMLDocument.parse(review.text)
        let withoutNote = try browser.press(try Self.button("Apply", in: reviewed), setting: ["note": ""])
        #expect(withoutNote.status == 400 && withoutNote.text.contains("Write a note to apply."))
        #expect(try Self.homeLayout(server) == "list", "no note, nothing applied")

        let applied = try browser.press(try Self.button("Apply", in: reviewed), setting: ["note": "grid for everyone"])
        #expect(applied.status == 303 && applied.header("Location") == "/admin?applied=2")
        #expect(server.log.contains("version in force") && server.log.contains("kind=toggles") && server.log.contains("version=2"),
                "\(server.log)")
        #expect(try Self.homeLayout(server) == "grid", "the next request sees the new version")
        let file = try String(contentsOfFile: togglesPath, encoding: .utf8)
        #expect(file.contains("\"defaultLayout\": \"grid\""))
        let history = try browser.get("/admin/history").text
        #expect(history.contains("by <span class=\"admin__who\">loopback</span>: grid for everyone"))
        #expect(history.contains("by <span class=\"admin__who\">file</span>: the file at the first start"))
        try eventually("the change is an event in the report log", timeout: 10) {
            try server.client.get("/reports.jsonl").text.contains(#""event":"toggles_changed""#)
        }
        let event = try server.client.get("/reports.jsonl").text.split(separator: "\n").first { $0.contains("toggles_changed") }
        #expect(event?.contains(#""version":"2""#) == true && event?.contains(#""who":"loopback""#) == true, "\(event ?? "")")

        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        server = try start()
        #expect(try Self.homeLayout(server) == "grid", "a restart keeps the applied version")
        let (_, again) = try Browser(port: server.port).page("/admin")
        #expect(again.first { $0["class"] == "admin__version" }?["data-version"] == "2", "no new version at restart")
    }

    @Test func aFormDrawnFromAnOlderVersionGetsAConflictNotAnOverwrite() throws {
        let server = try start()
        let first = Browser(port: server.port), second = Browser(port: server.port)
        let (_, secondForm) = try second.page("/admin")
        let firstApplied = try Self.apply(["defaultLayout": "grid"], note: "first", with: first)
        #expect(firstApplied.status == 303, "\(firstApplied.text)")
        let stale = try second.press(try Self.button("Review the difference", in: secondForm),
                                     setting: ["onboarding": "true", "rollout.grid": "50"])
        #expect(stale.status == 409, "\(stale.text)")
        #expect(stale.text.contains("your form was drawn from version 1"))
        #expect(stale.text.contains("+   &quot;defaultLayout&quot;: &quot;grid&quot;,"), "what changed since is shown")
        #expect(try Self.homeLayout(server) == "grid", "the first change stands")
        #expect(try String(contentsOfFile: togglesPath, encoding: .utf8).contains("\"onboarding\": false"))
    }

    /// A change form without the version it was drawn from, or with one that is no version
    /// number, is malformed: 400 saying so, not the conflict a stale form gets; nothing applied.
    @Test func aFormWithoutTheVersionItWasDrawnFromIsRefused() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        try browser.get("/admin")
        let posts: [(path: String, fields: [(String, String)])] = [
            ("/admin/toggles", [("defaultLayout", "grid"), ("note", "n"), ("action", "apply")]),
            ("/admin/experiment", [("experiment", "home-layout"), ("action", "stop"), ("note", "n")]),
            ("/admin/content", [("note", "n")]),
        ]
        for (path, fields) in posts {
            for base in [nil, "abc", "-1"] as [String?] {
                let response = try browser.post(path, withToken: fields + (base.map { [("base", $0)] } ?? []))
                #expect(response.status == 400, "\(path) base=\(base ?? "none"): \(response.status)")
                #expect(response.text.contains("which version it was drawn from"), "\(path) base=\(base ?? "none")")
            }
        }
        #expect(try Self.homeLayout(server) == "list")
        #expect(try String(contentsOfFile: togglesPath, encoding: .utf8).contains("\"list\""))
    }

    @Test func aBrokenRuleIsShownBesideItsFieldAndNothingIsApplied() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let (_, form) = try browser.page("/admin")
        let before = try String(contentsOfFile: togglesPath, encoding: .utf8)
        let refused = try browser.press(try Self.button("Review the difference", in: form),
                                        setting: ["rollout.grid": "150", "note": "too much", "action": "apply"])
        #expect(refused.status == 400)
        let html = try HTMLDocument.parse(refused.text)
        let field = try #require(html.first { $0["name"] == "rollout.grid" })
        #expect(field["aria-invalid"] == "true" && field["aria-describedby"]?.contains("field-rollout-grid-error") == true)
        let message = try #require(html.first { $0["id"] == "field-rollout-grid-error" })
        #expect(message.text == "must be a percent from 0 to 100 (got \"150\")", "in percent, as typed")
        #expect(refused.text.contains("Nothing was applied."))
        let clash = try browser.press(try Self.button("Review the difference", in: form), setting: [
            "experiments[0].name": "Bad Name", "experiments[0].groups[0].name": "a", "experiments[0].groups[1].name": "b",
        ])
        #expect(clash.status == 400)
        #expect(try HTMLDocument.parse(clash.text).first { $0["id"] == "field-experiments-0-name-error" }?.text
                    .hasPrefix("must be a name of 1 to 64 lower-case letters") == true, "\(clash.text)")
        let longNote = try browser.press(try Self.button("Review the difference", in: form),
                                         setting: ["defaultLayout": "grid", "note": String(repeating: "n", count: 501), "action": "apply"])
        #expect(longNote.status == 400 && longNote.text.contains("The note is 501 characters long; at most 500 are kept."))
        #expect(try String(contentsOfFile: togglesPath, encoding: .utf8) == before)
        #expect(try Self.homeLayout(server) == "list")
    }

    /// A note or a group name is shown as written on `/admin` and its history: a direction override
    /// in one would turn the rest of that line around, a line separator break it.
    @Test func anInvisibleControlInANoteOrAGroupNameIsRefusedAndNothingIsApplied() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let (_, form) = try browser.page("/admin")
        let before = try String(contentsOfFile: togglesPath, encoding: .utf8)
        for control in ["\u{202E}", "\u{2028}", "\u{1B}"] {
            let note = try browser.press(try Self.button("Review the difference", in: form),
                                         setting: ["defaultLayout": "grid", "note": "grid\(control)for all", "action": "apply"])
            let code = String(format: "U+%04X", control.unicodeScalars.first!.value)
            #expect(note.status == 400 && note.text.contains("The note holds an invisible character (\(code))"), "\(note.text)")
            #expect(note.text.contains("Nothing was applied.") && note.text.contains("href=\"/admin\""))
            let group = try browser.press(try Self.button("Review the difference", in: form), setting: [
                "experiments[0].name": "split", "experiments[0].groups[0].name": "a\(control)b", "experiments[0].groups[1].name": "b",
            ])
            #expect(group.status == 400, "\(code): \(group.status)")
            #expect(try HTMLDocument.parse(group.text).first { $0["id"] == "field-experiments-0-groups-0-name-error" }?.text
                        .hasPrefix("must be a name of 1 to 64 printable characters") == true, "\(code): \(group.text)")
        }
        #expect(try String(contentsOfFile: togglesPath, encoding: .utf8) == before)
        #expect(try Self.homeLayout(server) == "list")
    }

    /// A preview is for a whole visitor id: a prefix or a typo would be hashed as an id all the same.
    @Test func aPreviewForSomethingThatIsNoVisitorIdIsRefusedBesideItsField() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let (_, form) = try browser.page("/admin")
        for id in ["zzz", "0123abcd", "0123456789ABCDEF0123456789ABCDEF"] {
            let refused = try browser.press(try Self.button("Review the difference", in: form),
                                            setting: ["defaultLayout": "grid", "previewVisitor": id])
            #expect(refused.status == 400, "\(id)")
            let html = try HTMLDocument.parse(refused.text)
            #expect(html.first { $0["name"] == "previewVisitor" }?["aria-invalid"] == "true", "\(id)")
            #expect(refused.text.contains("must be a whole visitor id"), "\(id)")
        }
    }

    @Test func aRollbackIsANewVersionEqualToTheOldOne() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        #expect(try Self.apply(["defaultLayout": "grid"], note: "try grid", with: browser).status == 303)
        #expect(try Self.homeLayout(server) == "grid")
        let (_, history) = try browser.page("/admin/history")
        let rollback = try Self.button("Roll back to version 1", in: history)
        // Without a note (a browser that skips `required`): refused, with the way back to the history first.
        let noNote = try browser.press(rollback, setting: ["note": ""])
        #expect(noNote.status == 400)
        #expect(try HTMLDocument.parse(noNote.text).all("a").first { $0.text.hasPrefix("Back to") }?["href"] == "/admin/history")
        let back = try browser.press(rollback, setting: ["note": "back to the list"])
        #expect(back.status == 303 && back.header("Location") == "/admin/history?applied=3", "\(back.text)")
        #expect(try Self.homeLayout(server) == "list")
        let after = try browser.get("/admin/history").text
        #expect(after.contains("Version 3 (in force)") && after.contains(": back to the list"))
        // The same form again, drawn from version 2: what it asks is in force already.
        let again = try browser.press(rollback, setting: ["note": "again"])
        #expect(again.status == 303 && again.header("Location") == "/admin?unchanged")
    }

    @Test func anEditOfTheFileBecomesAVersionAndAStaleFormThenConflicts() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let (_, form) = try browser.page("/admin")
        try Data(#"{"defaultLayout": "grid"}"#.utf8).write(to: URL(fileURLWithPath: togglesPath))
        try eventually(timeout: 10) { try browser.get("/admin/history").text.contains("Version 2 (in force)") }
        #expect(try browser.get("/admin/history").text.contains("by <span class=\"admin__who\">file</span>: edited in the file"))
        let stale = try browser.press(try Self.button("Review the difference", in: form), setting: ["onboarding": "true"])
        #expect(stale.status == 409)
    }

    @Test func aRefusedHandEditIsKeptBesideTheFileWhenAnApplyReplacesIt() throws {
        let server = try start()
        let typo = #"{"defaultLayout": "Grid"}"#
        try Data(typo.utf8).write(to: URL(fileURLWithPath: togglesPath))
        try eventually("the watcher refused it", timeout: 10) { server.log.contains("toggles not reloaded") }
        let page = try HTMLDocument.parse(try server.client.get("/admin").text)
        #expect(page.first { $0["data-file-problem"] != nil }?.text.contains("defaultLayout must be a layout name") == true,
                "/admin shows the mistake, not only the log")
        #expect(try Self.apply(["onboarding": "true"], note: "over the typo", with: Browser(port: server.port)).status == 303)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("toggles.json.rejected-") }
        #expect(kept.count == 1)
        #expect(try kept.first.map { try String(contentsOfFile: folder.path($0), encoding: .utf8) } == typo)
    }

    /// The review page draws the form again as posted: the blank experiment, group, ramp and step
    /// drawn for it come back once, however often it is reviewed.
    @Test func reviewingAgainAddsNoBlankRows() throws {
        try #"{"defaultLayout": "list", "onboarding": false, "experiments": [{"name": "hero", "groups": [{"name": "a"}, {"name": "b"}]}], "ramps": [{"layout": "grid", "steps": [{"at": "2099-01-01T00:00:00Z", "share": 0.5}]}]}"#
            .write(toFile: togglesPath, atomically: true, encoding: .utf8)
        let server = try start()
        let browser = Browser(port: server.port)
        var (_, page) = try browser.page("/admin")
        func legends(_ page: HTMLElement) -> [String] { page.all("legend").map(\.text) }
        func groupNames(_ page: HTMLElement) -> Int { page.all("input").filter { ($0["name"] ?? "").hasSuffix(".name") && ($0["name"] ?? "").contains("groups[") }.count }
        func steps(_ page: HTMLElement) -> Int { page.all("input").filter { ($0["name"] ?? "").hasSuffix(".at") }.count }
        let drawn = (legends(page), groupNames(page), steps(page))
        #expect(drawn.0.filter { $0.hasPrefix("Experiment") } == ["Experiment hero"] && drawn.0.filter { $0.hasPrefix("Ramp of") } == ["Ramp of grid"])
        for round in 1...3 {
            let review = try browser.press(try Self.button("Review the difference", in: page), setting: ["onboarding": round % 2 == 1 ? "true" : "false"])
            #expect(review.status == 200, "\(review.text)")
            page = try HTMLDocument.parse(review.text)
            #expect(legends(page).filter { $0.hasPrefix("Experiment") || $0.hasPrefix("New experiment") } == ["Experiment hero", "New experiment"],
                    "round \(round): \(legends(page))")
            #expect(legends(page).filter { $0.hasPrefix("Ramp of") || $0 == "New ramp" } == ["Ramp of grid", "New ramp"], "round \(round)")
            #expect(groupNames(page) == drawn.1 && steps(page) == drawn.2, "round \(round): groups \(groupNames(page)), steps \(steps(page))")
        }
    }

    @Test func theAdminPagesNeedTheReportAccessAndPostsTheFormsToken() throws {
        let server = try start(["--report-token", Self.token])
        #expect(try server.client.get("/admin").status == 401)
        #expect(try server.client.get("/admin/history").status == 401)
        let bearer = [("Authorization", "Bearer \(Self.token)")]
        #expect(try server.client.get("/admin", headers: bearer).status == 200)
        let browser = Browser(port: server.port)
        try browser.get("/reports/login")
        #expect(try browser.post("/reports/login", withToken: [("token", Self.token)]).status == 303)
        try browser.get("/admin")
        #expect(try browser.post("/admin/toggles", form: [("base", "1"), ("defaultLayout", "grid"), ("note", "forged"),
                                                           ("action", "apply")]).status == 403)
        #expect(try Self.homeLayout(server) == "list")
        #expect(try Self.apply(["defaultLayout": "grid"], note: "signed in", with: browser).status == 303)
        #expect(try browser.get("/admin/history").text.contains("by <span class=\"admin__who\">sign-in</span>: signed in"))
    }

    /// A form drawn before another change comes back as the version in force with its own
    /// changes: applying it keeps the other change.
    @Test func aConflictRedrawsTheFormWithBothChanges() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let (_, stale) = try browser.page("/admin")
        #expect(try Self.apply(["onboarding": "true"], note: "notice on", with: browser).status == 303)
        let conflict = try browser.press(try Self.button("Review the difference", in: stale), setting: ["defaultLayout": "grid"])
        #expect(conflict.status == 409)
        let redrawn = try HTMLDocument.parse(conflict.text)
        #expect(redrawn.first { $0["name"] == "onboarding" && $0["type"] == "checkbox" }?["checked"] != nil, "the other change kept")
        #expect(redrawn.first { $0["name"] == "base" }?["value"] == "2")
        let review = try browser.press(try Self.button("Review the difference", in: redrawn))
        #expect(review.status == 200, "\(review.text)")
        let reviewed = try HTMLDocument.parse(review.text)
        #expect(try browser.press(try Self.button("Apply", in: reviewed), setting: ["note": "grid too"]).status == 303)
        let file = try String(contentsOfFile: togglesPath, encoding: .utf8)
        #expect(file.contains("\"defaultLayout\": \"grid\"") && file.contains("\"onboarding\": true"), "\(file)")
    }

    /// "Clear a group's name to remove it", as the form's hint says, whatever its other fields hold.
    @Test func aGroupWhoseNameIsClearedIsRemoved() throws {
        try Data(#"""
            {"defaultLayout": "list", "experiments": [{"name": "e", "groups": [
              {"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}, {"name": "third", "weight": 2, "layout": "grid"}]}]}
            """#.utf8).write(to: URL(fileURLWithPath: togglesPath))
        let server = try start()
        let browser = Browser(port: server.port)
        let applied = try Self.apply(["experiments[0].groups[2].name": ""], note: "without it", with: browser)
        #expect(applied.status == 303, "\(applied.text)")
        #expect(!(try String(contentsOfFile: togglesPath, encoding: .utf8)).contains("\"third\""))
    }

    /// The same apply sent twice says its change is in force, and the banner after an apply is
    /// told from the history, not from the address alone.
    @Test func anApplySentTwiceIsInForceAndTheBannerFollowsTheHistory() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let (_, form) = try browser.page("/admin")
        let review = try browser.press(try Self.button("Review the difference", in: form), setting: ["defaultLayout": "grid"])
        let reviewed = try HTMLDocument.parse(review.text)
        let apply = try Self.button("Apply", in: reviewed)
        #expect(try browser.press(apply, setting: ["note": "grid"]).header("Location") == "/admin?applied=2")
        let again = try browser.press(apply, setting: ["note": "grid"])
        #expect(again.status == 303 && again.header("Location") == "/admin?unchanged", "\(again.status) \(again.text)")
        #expect(try browser.get("/admin?unchanged").text.contains("Nothing to apply: what you sent is the version in force already."))
        #expect(try browser.get("/admin?applied=2").text.contains("Version 2 applied."))
        #expect(!(try browser.get("/admin?applied=999").text.contains("Version 999")))
        #expect(try Self.apply(["onboarding": "true"], note: "on", with: browser).status == 303)
        let replaced = try browser.get("/admin/history?applied=2").text
        #expect(replaced.contains("Version 2 was applied; version 3 has been applied since.") && !replaced.contains("Version 2 applied."))
    }

    /// An operator page refused for want of a sign-in links to it, the sign-in comes back to that
    /// page, and every admin page offers to sign out.
    @Test func aSignInAskedForByAnAdminPageReturnsThereAndTheAdminPagesSignOut() throws {
        let server = try start(["--report-token", Self.token])
        let browser = Browser(port: server.port)
        let (refused, html) = try browser.page("/admin/history?kind=x")
        #expect(refused.status == 401)
        let link = try #require(html.all("a").first { $0.text == "Sign in" }?["href"])
        #expect(HTMLDocument.decode(link) == "/reports/login?next=%2Fadmin%2Fhistory%3Fkind%3Dx", "\(link)")
        let (_, form) = try browser.page(HTMLDocument.decode(link))
        let signIn = try #require(form.all("button").first { $0.text == "Sign in" })
        let signedIn = try browser.press(signIn, setting: ["token": Self.token])
        #expect(signedIn.status == 303 && signedIn.header("Location") == "/admin/history?kind=x", "\(signedIn.header("Location") ?? "")")
        for elsewhere in ["//evil.example/", "/reports/logout", "/", "https://evil.example/admin"] {
            let response = try browser.post("/reports/login", withToken: [("token", Self.token), ("next", elsewhere)])
            #expect(response.header("Location") == "/reports", "next=\(elsewhere)")
        }
        let (_, admin) = try browser.page("/admin")
        let signOut = try #require(admin.all("button").first { $0.text == "Sign out" })
        #expect(try browser.press(signOut).status == 303)
        #expect(try browser.get("/admin").status == 401)
    }

    @Test func rowsAreSwitchedInTheFormAndKeptByOtherApplies() throws {
        try Data(#"""
            {"defaultLayout": "list", "rows": {"my-list": false},
             "experiments": [{"name": "rows", "groups": [{"name": "a"}, {"name": "b", "rows": {"trending": false}}]}]}
            """#.utf8).write(to: URL(fileURLWithPath: togglesPath))
        let server = try start()
        let browser = Browser(port: server.port)
        let (_, form) = try browser.page("/admin")
        #expect(form.first { $0["name"] == "rows.my-list" }?.first { $0.tag == "option" && $0["selected"] != nil }?["value"] == "false")
        // Another change keeps what the file says of the rows.
        var applied = try Self.apply(["defaultLayout": "grid"], note: "grid", with: browser)
        #expect(applied.status == 303, "\(applied.text)")
        var written = try String(contentsOfFile: togglesPath, encoding: .utf8)
        #expect(written.contains(#""rows": {"my-list": false},"#), "\(written)")
        #expect(written.contains(#"{"name": "b", "weight": 1, "rows": {"trending": false}}"#), "\(written)")
        applied = try Self.apply(["rows.my-list": "", "rows.continue-watching": "false",
                                  "experiments[0].groups[0].rows.because-you-watched": "false"], note: "rows", with: browser)
        #expect(applied.status == 303, "\(applied.text)")
        written = try String(contentsOfFile: togglesPath, encoding: .utf8)
        #expect(written.contains(#""rows": {"continue-watching": false},"#), "\(written)")
        #expect(written.contains(#"{"name": "a", "weight": 1, "rows": {"because-you-watched": false}}"#), "\(written)")
    }
}

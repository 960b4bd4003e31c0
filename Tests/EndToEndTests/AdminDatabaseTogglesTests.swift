import Foundation
import Testing
import TestSupport

/// The toggles' versions in the report database: three instances and one real PostgreSQL. An
/// apply on one is served by every instance moments later; a stale form on another conflicts;
/// with the database stopped an apply is refused, every instance keeps serving its version, one
/// restarted meanwhile too, and all follow again once it is back.
@Suite(.serialized, .enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (scripts/test installs it)"))
final class AdminDatabaseTogglesTests {
    let fixture: DatabaseInstances
    var instances: [ServerProcess] { fixture.instances }
    var folder: TemporaryDirectory { fixture.folder }

    /// Stops the database and waits until `instance` says it does not answer.
    func stopDatabase(seenBy instance: ServerProcess) throws {
        try fixture.database.stop()
        try eventually("/metrics says the database does not answer", timeout: 10) {
            try instance.client.get("/metrics").text.contains("dynamic_home_config_database_reachable 0")
        }
    }

    /// Starts the database again and waits until `instance` reaches it.
    func startDatabase(seenBy instance: ServerProcess) throws {
        try fixture.database.start()
        try eventually("/metrics says the database answers", timeout: 20) {
            try instance.client.get("/metrics").text.contains("dynamic_home_config_database_reachable 1")
        }
    }

    init() throws {
        // Each instance has its own files, as on its own machine.
        let toggles = #"{"defaultLayout": "list", "onboarding": false}"#
        let content = try String(contentsOf: ServerProcess.repositoryRoot.appendingPathComponent("Config/content.json"), encoding: .utf8)
        var files: [String: String] = [:]
        for index in 0..<3 {
            files["toggles-\(index).json"] = toggles
            files["content-\(index).json"] = content
        }
        fixture = try DatabaseInstances(3, folder: "admin-shared", ownCluster: Test.stopsTheDatabase, files: files) { index, folder in
            ["--toggles", folder.path("toggles-\(index).json"), "--content", folder.path("content-\(index).json")]
        }
        for instance in instances {
            try eventually("every instance follows the seeded version 1", timeout: 10) { try Self.version(instance) == 1 }
        }
        for index in 0..<3 {
            #expect(try String(contentsOfFile: folder.path("toggles-\(index).json"), encoding: .utf8)
                        == #"{"defaultLayout": "list", "onboarding": false}"#, "a file equal to the version is left as written")
        }
    }

    /// The toggles version `/admin` says the instance serves.
    static func version(_ server: ServerProcess) throws -> Int? {
        let html = try HTMLDocument.parse(try server.client.get("/admin").text)
        return html.first { $0["class"] == "admin__version" }?["data-version"].flatMap { Int($0) }
    }

    /// Whether a page says nothing in libpq's or PostgreSQL's own words (a refused or broken
    /// connection), which the operator cannot act on: those are for the server log.
    static func quotesNoDatabaseText(_ page: String) -> Bool {
        let decoded = HTMLDocument.decode(page)
        return !["connection to server", "server closed the connection", "terminated abnormally", "Connection refused",
                 "SQLSTATE", "could not connect", "no connection to the server"].contains { decoded.contains($0) }
    }

    @Test func anApplyOnOneInstanceIsServedByEveryInstanceAndAStaleFormElsewhereConflicts() throws {
        let other = Browser(port: instances[1].port)
        let (_, staleForm) = try other.page("/admin")
        let applied = try AdminTogglesTests.apply(["defaultLayout": "grid"], note: "grid everywhere", with: Browser(port: instances[0].port))
        #expect(applied.status == 303 && applied.header("Location") == "/admin?applied=2", "\(applied.text)")
        for (index, instance) in instances.enumerated() {
            try eventually("instance \(index) serves the grid", timeout: 10) { try AdminTogglesTests.homeLayout(instance) == "grid" }
            #expect(try String(contentsOfFile: folder.path("toggles-\(index).json"), encoding: .utf8).contains("\"defaultLayout\": \"grid\""))
        }
        if FileManager.default.isExecutableFile(atPath: TemporaryNginx.binary) {
            // Behind the repository's nginx, request after request (each to the next instance): the grid every time.
            let nginx = try TemporaryNginx(upstreams: instances.map(\.port))
            for _ in 0..<9 { #expect(try HTTPClient(port: nginx.port).get("/").text.contains("class=\"home-grid")) }
        }
        let stale = try other.press(try AdminTogglesTests.button("Review the difference", in: staleForm), setting: ["onboarding": "true"])
        #expect(stale.status == 409, "\(stale.text)")
        try eventually("/admin lists every instance with the version it serves", timeout: 10) {
            let page = try instances[2].client.get("/admin").text
            return (0..<3).allSatisfy { page.contains("data-instance=\"instance-\($0)\" data-version=\"2\"") }
        }
        // A rollback on another instance is one more version, for every instance.
        let (_, history) = try other.page("/admin/history")
        #expect(try other.press(try AdminTogglesTests.button("Roll back to version 1", in: history), setting: ["note": "back"]).status == 303)
        for instance in instances {
            try eventually(timeout: 10) { try AdminTogglesTests.homeLayout(instance) == "list" }
        }
    }

    /// `/admin/instances` is the instances part of `/admin` alone, which the page's script asks
    /// for once a second: an apply on another instance shows there; operator-only as `/admin`;
    /// saying so while the database is away.
    @Test(.tags(.stopsTheDatabase)) func theInstancesPartFollowsAnApplyElsewhereAndSaysWhenTheDatabaseIsAway() throws {
        let client = instances[0].client
        #expect(try client.get("/admin").text.contains("data-live-instances=\"/admin/instances?kind=toggles&amp;drawn=1\""))
        #expect(try client.get("/admin/content").text.contains("data-live-instances=\"/admin/instances?kind=content&amp;drawn=1\""))
        try eventually("the part lists every instance at version 1", timeout: 10) {
            let part = try client.get("/admin/instances?kind=toggles")
            return part.status == 200 && (0..<3).allSatisfy { part.text.contains("data-instance=\"instance-\($0)\" data-version=\"1\"") }
        }
        let part = try client.get("/admin/instances?kind=toggles")
        #expect(part.header("Cache-Control") == "no-store")
        #expect(part.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(!part.text.contains("<html") && !part.text.contains("<form"), "the part alone, not a page")
        #expect(try client.get("/admin/instances?kind=content").text.contains("data-instance=\"instance-2\""))
        #expect(try client.get("/admin/instances?kind=other").status == 400)
        #expect(try client.get("/admin/instances").status == 400)
        // Decided per request as `/admin`: passed on by a proxy, the request is not local.
        let forwarded = try client.get("/admin/instances?kind=toggles", headers: [("X-Forwarded-For", "203.0.113.9")])
        #expect(forwarded.status == 403)
        #expect(!forwarded.text.contains("data-instance="))

        #expect(try AdminTogglesTests.apply(["defaultLayout": "grid"], note: "grid", with: Browser(port: instances[1].port)).status == 303)
        try eventually("instance 0's part shows every instance at version 2", timeout: 10) {
            let part = try client.get("/admin/instances?kind=toggles").text
            return (0..<3).allSatisfy { part.contains("data-instance=\"instance-\($0)\" data-version=\"2\"") }
        }
        // A page drawn from version 1 is told that version 2 is in force, with the way to it.
        let newer = try client.get("/admin/instances?kind=toggles&drawn=1").text
        #expect(newer.contains("Version 2 is in force now; this page was drawn from version 1.") && newer.contains("href=\"/admin\""))
        #expect(!(try client.get("/admin/instances?kind=toggles&drawn=2").text.contains("data-newer-version")))

        try stopDatabase(seenBy: instances[0])
        let away = try client.get("/admin/instances?kind=toggles")
        // 200 all the same: a balancer takes an instance answering 503 out, and the visitors' pages with it.
        #expect(away.status == 200, "\(away.status)")
        #expect(away.text.contains("This instance cannot reach the database") && away.text.contains("The list of instances needs the database"),
                "\(away.text)")
        #expect(Self.quotesNoDatabaseText(away.text))
        try startDatabase(seenBy: instances[0])
        try eventually("the part lists the instances again", timeout: 10) {
            try client.get("/admin/instances?kind=toggles").text.contains("data-instance=\"instance-0\"")
        }
    }

    @Test func anUploadedCatalogueOnOneInstanceIsServedByEveryInstance() throws {
        let source = try Data(contentsOf: URL(fileURLWithPath: folder.path("content-0.json")))
        let text = try #require(String(data: source, encoding: .utf8))
        let changed = text.replacingOccurrences(of: "The Lighthouse Keeper's Daughter", with: "The Lighthouse Keeper's Son")
        #expect(changed != text)
        let browser = Browser(port: instances[0].port)
        try eventually(timeout: 10) {
            try HTMLDocument.parse(try instances[0].client.get("/admin/content").text).first { $0["class"] == "admin__version" }?["data-version"] == "1"
        }
        try browser.get("/admin/content")
        let review = try browser.post("/admin/content", multipart: [("base", "1"), ("action", "review")],
                                      files: [("catalogue", "content.json", Array(changed.utf8))])
        #expect(review.status == 200, "\(review.text)")
        let reviewed = try HTMLDocument.parse(review.text)
        let apply = try #require(reviewed.all("button").first { $0.text == "Apply" })
        // Behind a balancer "Apply" may reach another instance than the review: the same browser there.
        let elsewhere = Browser(port: instances[1].port)
        for (name, value) in browser.cookies { elsewhere.setCookie(name, value) }
        let applied = try elsewhere.press(apply, setting: ["note": "renamed"])
        #expect(applied.status == 303, "\(applied.text)")
        for (index, instance) in instances.enumerated() {
            try eventually("instance \(index) serves the new catalogue", timeout: 10) {
                HTMLDocument.decode(try instance.client.get("/").text).contains("The Lighthouse Keeper's Son")
            }
        }
    }

    @Test func aFileEditedWhileStoppedAndNewerThanTheDatabaseIsSetAsideAndShownNotPushed() throws {
        #expect(fixture.stop(2) == 0)
        try Data(#"{"defaultLayout": "grid", "onboarding": false}"#.utf8).write(to: URL(fileURLWithPath: folder.path("toggles-2.json")))
        try fixture.start(2)
        try eventually("/admin shows the conflict", timeout: 10) {
            try HTMLDocument.parse(try instances[2].client.get("/admin").text).first { $0["data-conflict"] != nil } != nil
        }
        let conflict = try HTMLDocument.parse(try instances[2].client.get("/admin").text).first { $0["data-conflict"] != nil }?.text ?? ""
        #expect(conflict.contains("edited on this instance after the database's version 1"), "\(conflict)")
        #expect(try AdminTogglesTests.homeLayout(instances[2]) == "list", "it serves the database's version")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("toggles-2.json.local-") }
        #expect(kept.count == 1, "the edit is kept beside the file")
        for instance in instances {
            #expect(try Self.version(instance) == 1, "nothing was pushed to the others")
            #expect(try AdminTogglesTests.homeLayout(instance) == "list")
        }
        // The banner's link draws the form from the kept edit; reviewed and applied, every instance serves it.
        let browser = Browser(port: instances[2].port)
        let (_, admin) = try browser.page("/admin")
        let link = try #require(admin.first { $0["data-review-kept"] != nil }?["href"])
        let (_, form) = try browser.page(link)
        #expect(form.first { $0["data-kept-form"] != nil }?.text.contains("toggles-2.json.local-") == true)
        #expect(form.all("input").contains { $0["name"] == "defaultLayout" && $0["value"] == "grid" && $0["checked"] != nil })
        let review = try browser.press(try AdminTogglesTests.button("Review the difference", in: form))
        #expect(review.status == 200, "\(review.text)")
        let reviewed = try HTMLDocument.parse(review.text)
        let applied = try browser.press(try AdminTogglesTests.button("Apply", in: reviewed), setting: ["note": "the edit made while it was down"])
        #expect(applied.status == 303, "\(applied.text)")
        for instance in instances { try eventually(timeout: 10) { try AdminTogglesTests.homeLayout(instance) == "grid" } }
        #expect(try HTMLDocument.parse(try instances[2].client.get("/admin").text).first { $0["data-conflict"] != nil } == nil,
                "applied, the kept edit is no longer announced")
    }

    /// Three instances started at once on a new database: whichever connects first makes the
    /// schema, and none logs a query against a table not made yet.
    @Test func aNewDatabaseGivesNoInstanceAMissingTable() throws {
        for (index, instance) in instances.enumerated() {
            #expect(!instance.log.contains("42P01") && !instance.log.contains("cannot follow the report database")
                        && !instance.log.contains("viewing events not read"), "instance \(index): \(instance.log)")
        }
    }

    /// An instance down while a version was applied answers its very first request with it: the
    /// start waits for the first catch-up, not only for the file it kept.
    @Test func anInstanceRestartedAfterAnApplyServesTheNewVersionFromItsFirstRequest() throws {
        #expect(fixture.stop(2) == 0)
        #expect(try AdminTogglesTests.apply(["defaultLayout": "grid"], note: "while 2 was down", with: Browser(port: instances[0].port)).status == 303)
        try fixture.start(2, waitingForTheDatabase: false)
        #expect(try AdminTogglesTests.homeLayout(instances[2]) == "grid", "the first answer after the restart")
    }

    /// A catalogue's apply refused while the database is away keeps the reviewed upload and the
    /// note on the page, so once it answers "Apply" there applies them.
    @Test(.tags(.stopsTheDatabase)) func withTheDatabaseStoppedACatalogueApplyKeepsTheUploadAndNoteToApplyAgain() throws {
        let text = try String(contentsOfFile: folder.path("content-0.json"), encoding: .utf8)
        let changed = text.replacingOccurrences(of: "The Lighthouse Keeper's Daughter", with: "The Lighthouse Keeper's Niece")
        let browser = Browser(port: instances[0].port)
        try browser.get("/admin/content")
        let review = try browser.post("/admin/content", multipart: [("base", "1"), ("action", "review")],
                                      files: [("catalogue", "content.json", Array(changed.utf8))])
        #expect(review.status == 200, "\(review.status)")
        let reviewed = try HTMLDocument.parse(review.text)
        let apply = try AdminTogglesTests.button("Apply", in: reviewed)
        try stopDatabase(seenBy: instances[0])
        let refused = try browser.press(apply, setting: ["note": "niece during the outage"])
        #expect(refused.status == 503 && refused.text.contains("The database did not answer, so your change was not applied and nothing was lost"), "\(refused.status)")
        #expect(Self.quotesNoDatabaseText(refused.text), "libpq's own words are for the server log")
        #expect(refused.header("Retry-After") == "5")
        let refusedPage = try HTMLDocument.parse(refused.text)
        #expect(refusedPage.all("input").first { $0["name"] == "note" }?["value"] == "niece during the outage")
        let again = try AdminTogglesTests.button("Apply", in: refusedPage)

        try startDatabase(seenBy: instances[0])
        let after = try browser.press(again)
        #expect(after.status == 303, "\(after.status)")
        for (index, instance) in instances.enumerated() {
            try eventually("instance \(index) serves the new catalogue", timeout: 10) {
                HTMLDocument.decode(try instance.client.get("/").text).contains("The Lighthouse Keeper's Niece")
            }
        }
    }

    /// A rollback refused while the database is away draws the history again with why, the note
    /// kept in that version's form, so once it answers the same button rolls back.
    @Test(.tags(.stopsTheDatabase)) func withTheDatabaseStoppedARollbackKeepsItsNoteToRollBackAgain() throws {
        let browser = Browser(port: instances[0].port)
        #expect(try AdminTogglesTests.apply(["defaultLayout": "grid"], note: "grid", with: browser).status == 303)
        for instance in instances { try eventually(timeout: 10) { try AdminTogglesTests.homeLayout(instance) == "grid" } }
        let (_, history) = try browser.page("/admin/history")
        let rollback = try AdminTogglesTests.button("Roll back to version 1", in: history)
        try stopDatabase(seenBy: instances[0])
        let refused = try browser.press(rollback, setting: ["note": "list during the outage"])
        #expect(refused.status == 503 && refused.text.contains("The database did not answer, so your change was not applied and nothing was lost"), "\(refused.status)")
        #expect(Self.quotesNoDatabaseText(refused.text), "libpq's own words are for the server log")
        #expect(refused.header("Retry-After") == "5")
        let refusedPage = try HTMLDocument.parse(refused.text)
        #expect(refusedPage.first { $0["id"] == "rollback-note-1" }?["value"] == "list during the outage")
        let again = try AdminTogglesTests.button("Roll back to version 1", in: refusedPage)

        try startDatabase(seenBy: instances[0])
        #expect(try browser.press(again).status == 303)
        for instance in instances { try eventually(timeout: 10) { try AdminTogglesTests.homeLayout(instance) == "list" } }
    }

    @Test(.tags(.stopsTheDatabase)) func withTheDatabaseStoppedAnApplyIsRefusedAndEveryInstanceKeepsServingItsVersion() throws {
        #expect(try AdminTogglesTests.apply(["defaultLayout": "grid"], note: "grid", with: Browser(port: instances[0].port)).status == 303)
        for instance in instances { try eventually(timeout: 10) { try AdminTogglesTests.homeLayout(instance) == "grid" } }
        try stopDatabase(seenBy: instances[1])
        #expect(try instances[1].client.get("/admin").text.contains("This instance cannot reach the database"))
        let sender = Browser(port: instances[1].port)
        let refused = try AdminTogglesTests.apply(["defaultLayout": "list"], note: "during the outage", with: sender)
        #expect(refused.status == 503 && refused.text.contains("The database did not answer, so your change was not applied and nothing was lost"), "\(refused.text)")
        #expect(Self.quotesNoDatabaseText(refused.text), "libpq's own words are for the server log")
        #expect(refused.header("Retry-After") == "5")
        // The change is not lost: the form comes back as sent, its note with it, to apply again.
        let refusedPage = try HTMLDocument.parse(refused.text)
        #expect(refusedPage.all("input").first { $0["name"] == "note" }?["value"] == "during the outage")
        #expect(refusedPage.all("input").contains { $0["name"] == "defaultLayout" && $0["value"] == "list" && $0["checked"] != nil })
        for instance in instances { #expect(try AdminTogglesTests.homeLayout(instance) == "grid") }

        #expect(fixture.stop(2) == 0)
        try fixture.start(2, waitingForTheDatabase: false)
        #expect(try AdminTogglesTests.homeLayout(instances[2]) == "grid", "restarted during the outage, it serves its last version")
        #expect(try Self.version(instances[2]) == 2)

        try startDatabase(seenBy: instances[1])
        let after = try sender.press(try AdminTogglesTests.button("Apply", in: refusedPage))
        #expect(after.status == 303, "\(after.status) \(after.text.suffix(3000))")
        for instance in instances { try eventually(timeout: 10) { try AdminTogglesTests.homeLayout(instance) == "list" } }
    }
}

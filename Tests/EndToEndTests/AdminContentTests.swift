import Foundation
import Testing
import TestSupport

/// `/admin/content`: the catalogue replaced by an upload, checked as at start, reviewed item by
/// item and applied as a version; too large is 413, a stale form 409, hand edits are versions.
@Suite(.serialized) final class AdminContentTests {
    let folder: TemporaryDirectory
    let contentPath: String
    let original: [String: Any]

    init() throws {
        folder = try TemporaryDirectory("admin-content")
        contentPath = folder.path("content.json")
        let source = ServerProcess.repositoryRoot.appendingPathComponent("Config/content.json")
        try FileManager.default.copyItem(atPath: source.path, toPath: contentPath)
        original = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
    }

    func start() throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--content", contentPath, "--report-log", folder.path("reports")])
    }

    var items: [[String: Any]] { original["items"] as? [[String: Any]] ?? [] }

    func catalogue(_ items: [[String: Any]]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: ["version": 1, "items": items], options: [.prettyPrinted]))
    }

    /// Draws the upload form and posts `bytes` for review.
    func review(_ bytes: [UInt8], with browser: Browser, base: String = "1") throws -> HTTPResponse {
        try browser.get("/admin/content")
        return try browser.post("/admin/content", multipart: [("base", base), ("action", "review")],
                                files: [("catalogue", "upload.json", bytes)])
    }

    @Test func anUploadIsReviewedItemByItemThenAppliedAsAVersion() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        var changed = items
        let removed = try #require(changed.popLast()?["id"] as? String)
        changed[0]["title"] = "A Title Changed In The Admin"
        var added = changed[1]
        added["id"] = "m-new-1"
        changed.append(added)
        let review = try self.review(try catalogue(changed), with: browser)
        #expect(review.status == 200, "\(review.text)")
        let html = try HTMLDocument.parse(review.text)
        #expect(html.all { $0["data-change"] == "added" }.map(\.text).first?.contains("m-new-1") == true)
        #expect(html.all { $0["data-change"] == "removed" }.map(\.text).first?.contains(removed) == true)
        #expect(html.all { $0["data-change"] == "changed" }.map(\.text).first?.contains("(title)") == true)
        #expect(!(try server.client.get("/").text.contains("A Title Changed In The Admin")), "a review applies nothing")

        let apply = try #require(html.all("button").first { $0.text == "Apply" })
        #expect(try browser.press(apply, setting: ["note": ""]).status == 400, "a note is required")
        let applied = try browser.press(apply, setting: ["note": "new title"])
        #expect(applied.status == 303 && applied.header("Location") == "/admin/content?applied=2", "\(applied.text)")
        #expect(try server.client.get("/").text.contains("A Title Changed In The Admin"))
        #expect(try String(contentsOfFile: contentPath, encoding: .utf8).contains("m-new-1"))
        // The version in force downloads as its file, to edit and upload again.
        let (_, contentPage) = try browser.page("/admin/content")
        let download = try browser.get(try #require(contentPage.first { $0["data-download"] != nil }?["href"]))
        #expect(download.status == 200 && download.header("Content-Disposition") == "attachment; filename=\"content-v2.json\"")
        #expect(download.text == (try String(contentsOfFile: contentPath, encoding: .utf8)))
        // The number /admin gives it, the one to compare across instances.
        #expect(try server.client.get("/metrics").text.contains("\ndynamic_home_config_content_version 2\n"))
        let history = try browser.get("/admin/content/history").text
        #expect(history.contains("by <span class=\"admin__who\">loopback</span>: new title"))
        try eventually(timeout: 10) {
            try server.client.get("/reports.jsonl").text.contains(#""event":"content_changed""#)
        }
    }

    /// A catalogue cut short while the server was down: set aside, and the server starts from the
    /// history's newest version, saying so on /admin/content.
    @Test func aTruncatedCatalogueIsRestoredFromItsHistoryAtStart() throws {
        var server = try start()
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let whole = try Data(contentsOf: URL(fileURLWithPath: contentPath))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: contentPath))
        server = try start()
        #expect(try server.client.get("/").status == 200)
        #expect(try Data(contentsOf: URL(fileURLWithPath: contentPath)) == whole, "the catalogue of the last run")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("content.json.damaged-") }
        #expect(try kept.map { try Data(contentsOf: URL(fileURLWithPath: folder.path($0))) } == [whole.prefix(whole.count / 2)])
        let page = try HTMLDocument.parse(try server.client.get("/admin/content").text)
        let notice = page.first { $0["data-restored"] != nil }?.text ?? ""
        #expect(notice.contains("could not be loaded") && notice.contains("started from version 1"), "\(notice)")
    }

    @Test func aBrokenCatalogueGetsTheMessageItGetsAtStartAndNothingChanges() throws {
        var broken = items
        broken[3]["kind"] = "podcast"
        let bytes = try catalogue(broken)
        let badFile = folder.path("bad.json")
        try Data(bytes).write(to: URL(fileURLWithPath: badFile))
        let refusedAtStart = try ServerProcess(arguments: ["--port", "0", "--content", badFile, "--report-log", folder.path("other")],
                                               waitForListening: false)
        #expect(refusedAtStart.waitForExit() != 0)
        let startMessage = try #require(refusedAtStart.log.range(of: "item 3: ").map { String(refusedAtStart.log[$0.lowerBound...].prefix { $0 != "\n" }) })

        let server = try start()
        let refused = try review(bytes, with: Browser(port: server.port))
        #expect(refused.status == 400)
        let shown = try HTMLDocument.parse(refused.text).first { $0.hasClass("admin__problem") }?.text ?? ""
        #expect(shown.contains("upload.json: " + startMessage), "\(startMessage)\n\(shown)")
        #expect(try String(contentsOfFile: contentPath, encoding: .utf8) == String(contentsOfFile: ServerProcess.repositoryRoot.appendingPathComponent("Config/content.json").path, encoding: .utf8))
    }

    /// A pasted direction override in a title would turn the tile's text around for every visitor:
    /// an upload holding one is refused naming the item and field, a file holding one at start is
    /// set aside as a damaged one is.
    @Test func anInvisibleControlInAnItemsTextIsRefusedOnUploadAndSetAsideAtStart() throws {
        var overridden = items
        let id = try #require(overridden[3]["id"] as? String)
        overridden[3]["title"] = "\u{202E}" + (overridden[3]["title"] as? String ?? "")
        let bytes = try catalogue(overridden)
        var server = try start()
        let refused = try review(bytes, with: Browser(port: server.port))
        #expect(refused.status == 400)
        let shown = try HTMLDocument.parse(refused.text).first { $0.hasClass("admin__problem") }?.text ?? ""
        #expect(shown.contains("upload.json: item 3 (\"\(id)\"): field \"title\" holds an invisible character (U+202E)"), "\(shown)")
        let whole = try Data(contentsOf: URL(fileURLWithPath: contentPath))

        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        try Data(bytes).write(to: URL(fileURLWithPath: contentPath))
        server = try start()
        #expect(try Data(contentsOf: URL(fileURLWithPath: contentPath)) == whole, "the catalogue of the last run")
        #expect(!(try server.client.get("/").text.unicodeScalars.contains("\u{202E}")))
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("content.json.damaged-") }
        #expect(try kept.map { try Data(contentsOf: URL(fileURLWithPath: folder.path($0))) } == [Data(bytes)])
        let page = try HTMLDocument.parse(try server.client.get("/admin/content").text)
        let notice = page.first { $0["data-restored"] != nil }?.text ?? ""
        #expect(notice.contains("field \"title\" holds an invisible character (U+202E)"), "\(notice)")
    }

    /// The uploaded file's name labels the loader's message: a direction override in it would show
    /// the message backwards, a line separator break it.
    @Test func theUploadsNameIsShownWithoutItsInvisibleControls() throws {
        var broken = items
        broken[3]["kind"] = "podcast"
        let server = try start()
        let browser = Browser(port: server.port)
        try browser.get("/admin/content")
        let refused = try browser.post("/admin/content", multipart: [("base", "1"), ("action", "review")],
                                       files: [("catalogue", "up\u{202E}lo\u{2028}ad.json", try catalogue(broken))])
        #expect(refused.status == 400)
        let shown = try HTMLDocument.parse(refused.text).first { $0.hasClass("admin__problem") }?.text ?? ""
        #expect(shown.contains("upload.json: item 3: "), "\(shown)")
        #expect(!refused.text.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{2028}" })
    }

    @Test func anUploadOverFourMebibytesIs413AndOneUnderIsRead() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        let tooLarge = try review([UInt8](repeating: UInt8(ascii: " "), count: 4 * 1024 * 1024 + 1), with: browser)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.text.contains("upload.json: is larger than the 4 MiB a content file may have"))
        // Over the server's 1 MiB for other posts, within the catalogue's limit: read and checked.
        let large = try review(Array("{\"items\": [".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 2 * 1024 * 1024), with: browser)
        #expect(large.status == 400 && large.text.contains("is not valid JSON"), "\(large.status)")
    }

    /// An apply from a review drawn before another version came conflicts, and offers the same
    /// upload and note to review against the version in force: no file chosen again.
    @Test func aConflictingApplyKeepsTheUploadAndNoteToReviewAgainstTheNewVersion() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        var uploaded = items
        uploaded[1]["title"] = "Uploaded Title"
        let review = try self.review(try catalogue(uploaded), with: browser)
        #expect(review.status == 200)
        let reviewed = try HTMLDocument.parse(review.text)  // kept: a button reaches its form through it
        let apply = try #require(reviewed.all("button").first { $0.text == "Apply" })
        var edited = items
        edited[0]["title"] = "Edited By Hand"
        try Data(try catalogue(edited)).write(to: URL(fileURLWithPath: contentPath))
        try eventually(timeout: 10) { try browser.get("/admin/content/history").text.contains("Version 2 (in force)") }
        let conflict = try browser.press(apply, setting: ["note": "new title"])
        #expect(conflict.status == 409)
        let conflicted = try HTMLDocument.parse(conflict.text)
        let again = try #require(conflicted.all("button").first { $0.text == "Review your upload against version 2" })
        let second = try browser.press(again)
        #expect(second.status == 200)
        let page = try HTMLDocument.parse(second.text)
        #expect(page.first { $0["id"] == "field-note" }?["value"] == "new title")
        let applyNow = try #require(page.all("button").first { $0.text == "Apply" })
        #expect(try browser.press(applyNow).status == 303)
        let home = try server.client.get("/").text
        #expect(home.contains("Uploaded Title") && !home.contains("Edited By Hand"))
    }

    @Test func aStaleUploadConflictsAndAHandEditIsAVersionThatCanBeRolledBack() throws {
        let server = try start()
        let browser = Browser(port: server.port)
        var edited = items
        edited[0]["title"] = "Edited By Hand"
        try Data(try catalogue(edited)).write(to: URL(fileURLWithPath: contentPath))
        try eventually(timeout: 10) { try browser.get("/admin/content/history").text.contains("Version 2 (in force)") }
        #expect(try server.client.get("/").text.contains("Edited By Hand"))
        #expect(try review(try catalogue(items), with: browser, base: "1").status == 409)
        let (_, history) = try browser.page("/admin/content/history")
        let rollback = try #require(history.all("button").first { $0.text == "Roll back to version 1" })
        #expect(try browser.press(rollback, setting: ["note": "undo the hand edit"]).status == 303)
        #expect(!(try server.client.get("/").text.contains("Edited By Hand")))
    }
}

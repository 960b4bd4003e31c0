import FeatureToggles
import Foundation
import MicroHTTP
import Testing
import TestSupport

@testable import HomeApp

/// QA links through the real `dynamic-home` process: made on `/admin/qa`, opened by a tester,
/// forcing a group with a banner on every page until ended; refused when altered, expired or
/// about an experiment no longer running; the tester's events marked and never counted.
@Suite struct QALinkTests {
    static let secret = "a secret of at least sixteen bytes"
    static let toggles = #"""
        {"experiments": [{"name": "qa-test", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}
        """#
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("qa-links") }

    func start() throws -> ServerProcess {
        let path = folder.path("toggles.json")
        try Data(Self.toggles.utf8).write(to: URL(fileURLWithPath: path))
        return try ServerProcess(arguments: [
            "--port", "0", "--public", ServerProcess.publicFolder, "--toggles", path,
            "--report-log", logPath, "--secret", Self.secret, "--report-visitor-rate", "0", "--report-address-rate", "0",
        ])
    }

    /// A visitor id the hash puts in `group` of `qa-test`.
    static func visitor(in group: String, skipping: Int = 0) throws -> String {
        let toggles = try Toggles(json: Data(toggles.utf8), file: "t")
        let ids = (0..<1000).lazy.map { String(format: "%032x", 0xABC000 + $0) }
            .filter { toggles.experiments[0].group(for: $0).name == group }
        return try #require(Array(ids.dropFirst(skipping).prefix(1)).first)
    }

    /// The link `/admin/qa` makes for `force`.
    static func makeLink(_ server: ServerProcess, force: String) throws -> String {
        let admin = Browser(port: server.port)
        let form = try admin.get("/admin/qa")
        #expect(form.status == 200)
        #expect(form.text.contains(#"value="experiment:qa-test/b""#))
        let made = try admin.post("/admin/qa", withToken: [("force", force), ("lifetime", "3600")])
        #expect(made.status == 200, "\(made.text)")
        let start = try #require(made.text.range(of: "href=\"/qa?token="))
        return String(made.text[made.text.index(start.lowerBound, offsetBy: 6)...].prefix { $0 != "\"" })
    }

    static func lines(_ path: String, visitor: String) -> [[String: String]] {
        guard let text = try? ReportSegments.text(of: path) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["visitor"] as? String == visitor else { return nil }
            var fields = (object["properties"] as? [String: String]) ?? [:]
            fields["event"] = object["event"] as? String
            return fields
        }
    }

    @Test func aLinkForcesItsGroupShowsTheBannerUntilEndedAndItsEventsAreNotCounted() throws {
        let server = try start()
        let link = try Self.makeLink(server, force: "experiment:qa-test/b")
        let tester = Browser(port: server.port)
        let testerID = try Self.visitor(in: "a")
        tester.setCookie("visitor", testerID)
        let opened = try tester.get(link)
        #expect(opened.status == 303)
        #expect(opened.header("Location") == "/")
        #expect(tester.cookies["qa"] != nil)
        #expect(opened.header("Set-Cookie")?.contains("Max-Age=3600") == true || opened.header("Set-Cookie")?.contains("Max-Age=3599") == true)

        // The hash says "a" (list); the link says "b" (grid), with the banner, on the home and elsewhere.
        for _ in 0..<3 {
            let home = try tester.get("/")
            #expect(home.text.contains(#"name="layout" value="grid""#))
            #expect(home.text.contains("data-qa-override"))
            #expect(home.text.contains("group \u{201C}b\u{201D} of experiment \u{201C}qa-test\u{201D}"))
        }
        #expect(try tester.get("/settings").text.contains("data-qa-override"))

        // An ordinary visitor of group "b", after the tester's views: once theirs is counted, the tester's were passed over.
        let other = Browser(port: server.port)
        let otherID = try Self.visitor(in: "b")
        other.setCookie("visitor", otherID)
        let plain = try other.get("/")
        #expect(!plain.text.contains("data-qa-override"))
        var member: [String: Any]?
        try eventually("\(String(describing: member))", timeout: 20) {
            member = Self.experiment(server, "qa-test")
            return Self.visitorCount(member, "b") == 1
        }
        #expect(Self.visitorCount(member, "a") == 0)
        // The range table counts one view of "b", the ordinary visitor's, not the tester's three.
        let views = (member?["groups"] as? [[String: Any]])?.first { $0["group"] as? String == "b" }?["views"] as? Int
        #expect(views == 1)
        let testerLines = Self.lines(logPath, visitor: testerID)
        #expect(testerLines.filter { $0["event"] == "launch" }.count == 3)
        #expect(testerLines.allSatisfy { $0["qa"] == "1" && $0["experiment.qa-test"] == "b" })
        #expect(Self.lines(logPath, visitor: otherID).allSatisfy { $0["qa"] == nil })

        // Ending it: back where the button was, no cookie, no banner, the hash's group again.
        let ended = try tester.post("/qa/end", withToken: [("from", "/settings")])
        #expect(ended.status == 303)
        #expect(ended.header("Location") == "/settings")
        #expect(tester.cookies["qa"] == nil)
        let after = try tester.get("/")
        #expect(!after.text.contains("data-qa-override"))
        #expect(after.text.contains(#"name="layout" value="list""#))
        // Without the page's token the end is refused.
        #expect(try Browser(port: server.port).post("/qa/end", form: [("from", "/")]).status == 403)
    }

    @Test func anAlteredExpiredOrStaleLinkIsRefusedWithAPageThatSaysWhy() throws {
        let server = try start()
        let link = try Self.makeLink(server, force: "experiment:qa-test/b")
        let token = String(link.dropFirst("/qa?token=".count))
        let csrf = CSRFProtection(secret: Self.secret)
        let now = Int(Date().timeIntervalSince1970)

        var altered = Array(token)
        altered[altered.count - 2] = altered[altered.count - 2] == "A" ? "B" : "A"
        let otherGroup = QAOverride(forced: .group(experiment: "qa-test", group: "a"), expiry: now + 3600).token(signedWith: csrf)
        let spliced = String(otherGroup.prefix { $0 != "." }) + "." + String(token.drop { $0 != "." }.dropFirst())
        let expired = QAOverride(forced: .group(experiment: "qa-test", group: "b"), expiry: now - 60).token(signedWith: csrf)
        let stale = QAOverride(forced: .group(experiment: "qa-test", group: "z"), expiry: now + 3600).token(signedWith: csrf)
        let foreign = QAOverride(forced: .layout("grid"), expiry: now + 3600).token(signedWith: CSRFProtection(secret: "another secret, sixteen bytes or more"))
        let cases: [(String, Int, String)] = [
            (String(altered), 400, "not one this site made"), (spliced, 400, "not one this site made"),
            (foreign, 400, "signed under another secret (without --secret every restart makes a new one"), ("", 400, "not one this site made"),
            (expired, 410, "expired"), (stale, 409, "not running now"),
        ]
        for (token, status, words) in cases {
            let browser = Browser(port: server.port)
            let response = try browser.get("/qa?token=" + FormEncoding.encode(token))
            #expect(response.status == status, "\(token)")
            #expect(response.text.contains(words), "\(response.text)")
            #expect(browser.cookies["qa"] == nil)
        }
        // A cookie set by hand to an altered or expired value is ignored: no banner, no mark.
        for value in [String(altered), expired] {
            let browser = Browser(port: server.port)
            browser.setCookie("qa", value)
            #expect(!(try browser.get("/").text.contains("data-qa-override")))
        }
    }

    /// Stopped after the link was opened (here by an edit of the file, as by an apply on any
    /// instance), the experiment's group is forced no more: the banner goes, the events are not marked.
    @Test func aCookieWhoseExperimentStoppedIsIgnored() throws {
        let server = try start()
        let link = try Self.makeLink(server, force: "experiment:qa-test/b")
        let tester = Browser(port: server.port)
        let testerID = try Self.visitor(in: "a")
        tester.setCookie("visitor", testerID)
        #expect(try tester.get(link).status == 303)
        #expect(try tester.get("/").text.contains("data-qa-override"))

        let stopped = Self.toggles.replacingOccurrences(of: #"{"name": "qa-test","#, with: #"{"name": "qa-test", "active": false,"#)
        try Data(stopped.utf8).write(to: URL(fileURLWithPath: folder.path("toggles.json")))
        var page = ""
        try eventually("the home still forces the grid:\n\(page)", timeout: 10) {
            page = try tester.get("/").text
            return page.contains(#"name="layout" value="list""#)
        }
        let bannerOnHome = page.contains("data-qa-override")
        #expect(!bannerOnHome)
        #expect(!(try tester.get("/settings").text.contains("data-qa-override")))
        // The log is written behind the answers: the home seen without the override is logged unmarked.
        var launches: [[String: String]] = []
        try eventually("\(launches)", timeout: 10) {
            launches = Self.lines(logPath, visitor: testerID).filter { $0["event"] == "launch" }
            return launches.contains { $0["qa"] == nil }
        }
    }

    @Test func aLayoutLinkForcesTheLayoutOverTheVisitorsOwnChoice() throws {
        let server = try start()
        let link = try Self.makeLink(server, force: "layout:grid")
        let tester = Browser(port: server.port)
        tester.setCookie("visitor", try Self.visitor(in: "a"))
        tester.setCookie("layout", "list")
        #expect(try tester.get(link).status == 303)
        let home = try tester.get("/")
        #expect(home.text.contains(#"name="layout" value="grid""#))
        #expect(home.text.contains("the grid layout"))
        // An unknown choice on /admin/qa is a 400 page saying what to choose.
        let admin = Browser(port: server.port)
        _ = try admin.get("/admin/qa")
        let bad = try admin.post("/admin/qa", withToken: [("force", "experiment:qa-test/nope"), ("lifetime", "3600")])
        #expect(bad.status == 400)
        #expect(bad.text.contains("Choose a group of a running experiment"))
        let long = try admin.post("/admin/qa", withToken: [("force", "layout:grid"), ("lifetime", "9999999")])
        #expect(long.status == 400)
        // Two choices are none: the link would force whichever came first.
        let twice = try admin.post("/admin/qa", withToken: [("force", "layout:grid"), ("force", "layout:list"), ("lifetime", "3600")])
        #expect(twice.status == 400 && twice.text.contains("The form gives &quot;force&quot; more than once"), "\(twice.status)")
    }

    /// The cookie is found wherever it sits in the header, and a header without it is passed over.
    @Test func theCookieIsReadWhereverItSits() {
        let csrf = CSRFProtection(secret: Self.secret)
        let override = QAOverride(forced: .layout("grid"), expiry: Int(Date().timeIntervalSince1970) + 60)
        let token = override.token(signedWith: csrf)
        for header in ["qa=\(token)", "visitor=abc; qa=\(token)", "q=1; aqa=2; qa=\(token); z=q", "qq=1;qa=\(token)"] {
            #expect(QAOverride.current(in: Cookies(header: header), csrf: csrf) == override, "\(header)")
        }
        for header in ["", "visitor=abc", "aqa=\(token)", "q", "qa", "visitor=q; layout=qa"] {
            #expect(QAOverride.current(in: Cookies(header: header), csrf: csrf) == nil, "\(header)")
        }
    }

    static func experiment(_ server: ServerProcess, _ name: String) -> [String: Any]? {
        guard let body = try? server.client.get("/reports.json").body,
              let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return (json["experiments"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }

    static func visitorCount(_ experiment: [String: Any]?, _ group: String) -> Int? {
        let groups = (experiment?["visitors"] as? [String: Any])?["groups"] as? [[String: Any]]
        return groups?.first { $0["group"] as? String == group }?["visitors"] as? Int ?? (groups == nil ? nil : 0)
    }
}

import Foundation
import Testing
import TestSupport

/// Who visited, on `/reports` and `/reports.json`: the visitor count follows every filter, the
/// events table's shortened ids are what the visitor filter takes, and an estimate says so.
@Suite struct ReportVisitorsTests {
    let folder: TemporaryDirectory
    let server: ServerProcess
    static let publicFolder = ServerProcess.publicFolder

    /// Two visitors whose ids share their first 8 characters (`aaaaaaaa…`), one of their own.
    static let first = "aaaaaaaa1" + String(repeating: "0", count: 23)
    static let second = "aaaaaaaa2" + String(repeating: "0", count: 23)
    static let third = "cccccccc" + String(repeating: "3", count: 24)
    /// Nine more, each one launch of the list.
    static let others = (0..<9).map { String(format: "%08x", 0xd0 + $0) + String(repeating: "e", count: 24) }

    static func line(_ minute: Int, _ event: String, layout: String, item: String? = nil, visitor: String) -> String {
        let time = String(format: "2026-11-20T10:%02d:00.000Z", minute)
        return #"{"timestamp":"\#(time)","event":"\#(event)","layout":"\#(layout)","#
            + (item.map { #""item":"\#($0)","# } ?? "") + #""visitor":"\#(visitor)","request":"r\#(minute)"}"#
    }

    init() throws {
        folder = try TemporaryDirectory("report-visitors")
        var lines = [
            Self.line(0, "launch", layout: "grid", visitor: Self.first),
            Self.line(1, "long_selected", layout: "grid", item: "m-1", visitor: Self.first),
            Self.line(2, "launch", layout: "list", visitor: Self.second),
            Self.line(3, "launch", layout: "grid", visitor: Self.third),
            Self.line(4, "launch", layout: "grid", visitor: Self.third),
            Self.line(5, "launch", layout: "grid", visitor: Self.third),
            Self.line(6, "short_selected", layout: "grid", item: "m-2", visitor: Self.third),
        ]
        lines += Self.others.enumerated().map { Self.line(10 + $0.offset, "launch", layout: "list", visitor: $0.element) }
        let log = try Self.importLog(lines, into: folder, name: "reports")
        server = try ServerProcess(arguments: ["--port", "0", "--public", Self.publicFolder, "--report-log", log])
    }

    static func importLog(_ lines: [String], into folder: TemporaryDirectory, name: String) throws -> String {
        let seed = folder.path("\(name).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: seed, atomically: true, encoding: .utf8)
        let log = folder.path(name)
        let imported = try ServerProcess(arguments: ["reports", "import", seed, "--report-log", log], waitForListening: false)
        #expect(imported.waitForExit() == 0)
        return log
    }

    func json(_ target: String) throws -> [String: Any] {
        let response = try server.client.get(target)
        #expect(response.status == 200, "\(target): \(response.text)")
        return try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func page(_ target: String) throws -> HTMLElement {
        let response = try server.client.get(target)
        #expect(response.status == 200, "\(target)")
        return try HTMLDocument.parse(response.text)
    }

    @Test(arguments: [
        ("", 16, 12), ("event=launch", 14, 12), ("event=long_selected", 1, 1), ("layout=grid", 6, 2),
        ("layout=list", 10, 10), ("item=m-2", 1, 1), ("event=launch&layout=grid", 4, 2), ("event=search", 0, 0),
    ])
    func theVisitorCountFollowsEveryFilter(query: String, events: Int, visitors: Int) throws {
        let numbers = try json("/reports.json?" + query)
        #expect(numbers["total"] as? Int == events, "\(query)")
        #expect(numbers["visitors"] as? Int == visitors, "\(query)")
        #expect(numbers["visitorsExact"] as? Bool == true, "\(query): counted, not estimated")
        #expect(numbers["visitorsError"] as? Int == 0, "\(query)")
        let shown = try #require(try page("/reports?" + query).first { $0["data-visitors"] != nil })
        #expect(shown.text == "\(visitors)", "\(query)")
        #expect(shown["data-exact"] == "true")
    }

    @Test func theEventsTableShowsWhatTheVisitorFilterTakesAndLinksTheWholeId() throws {
        let html = try page("/reports?layout=grid")
        let links = html.all(class: "visitor-link")
        #expect(links.count == 6)
        for link in links {
            let whole = try #require(link["title"])
            #expect(whole.count == 32)
            #expect(link.text == String(whole.prefix(8)))
            #expect(link["href"] == "/reports?visitor=\(whole)")
        }
        // What the table shows finds that visitor's events.
        let shown = String(Self.third.prefix(8))
        let filtered = try page("/reports?visitor=\(shown)")
        #expect(filtered.all(class: "visitor-link").map { $0["title"] } == Array(repeating: Self.third, count: 4))
        #expect(filtered.first { $0.tag == "input" && $0["name"] == "visitor" }?["value"] == Self.third)
        let numbers = try json("/reports.json?visitor=\(shown.uppercased())")
        #expect(numbers["total"] as? Int == 4)
        #expect(numbers["visitors"] as? Int == 1)
        // More of an id than 8 characters narrows it down.
        #expect(try json("/reports.json?visitor=aaaaaaaa2")["total"] as? Int == 1)
        // A start no id has finds nothing, as a whole id would.
        #expect(try json("/reports.json?visitor=bbbbbbbb")["total"] as? Int == 0)
    }

    /// An id pasted with spaces around it, or in capitals, finds the visitor as the table shows it.
    @Test func aWholeIdPastedWithSpacesOrInCapitalsFindsTheVisitor() throws {
        for typed in ["%20\(Self.third)%20", Self.third.uppercased(), "%09\(Self.third.prefix(8))%20"] {
            let numbers = try json("/reports.json?visitor=\(typed)")
            #expect(numbers["total"] as? Int == 4, "\(typed)")
            #expect(numbers["visitors"] as? Int == 1, "\(typed)")
        }
        let filtered = try page("/reports?visitor=%20\(Self.third.uppercased())%20")
        #expect(filtered.first { $0.tag == "input" && $0["name"] == "visitor" }?["value"] == Self.third)
        #expect(filtered.all(class: "visitor-link").count == 4)
    }

    @Test func anAmbiguousStartOfAnIdSaysSo() throws {
        let response = try server.client.get("/reports?visitor=aaaaaaaa")
        #expect(response.status == 400)
        #expect(response.text.contains("Several visitors"))
        #expect(response.text.contains(Self.first) && response.text.contains(Self.second))
        let numbers = try server.client.get("/reports.json?visitor=aaaaaaaa")
        #expect(numbers.status == 400)
        let error = try #require(try JSONSerialization.jsonObject(with: Data(numbers.body)) as? [String: Any])
        #expect((error["error"] as? String)?.contains("give more of the id") == true)
    }

    /// Past `exactVisitorEvents` (20,000) unfiltered events the hourly sketches estimate the
    /// visitors, and the figure says so and by how much; a filter still counts them exactly.
    @Test func anEstimateSaysSoAndByHowMuch() throws {
        let visitors = 1_000
        let lines = (0..<20_100).map { index in
            let time = String(format: "2026-11-21T%02d:%02d:%02d.000Z", index / 3600 % 24, index / 60 % 60, index % 60)
            let visitor = String(format: "%032x", 0xabc000 + index % visitors)
            return #"{"timestamp":"\#(time)","event":"\#(index % 10 == 0 ? "long_selected" : "launch")","layout":"grid","visitor":"\#(visitor)"}"#
        }
        let log = try Self.importLog(lines, into: folder, name: "many")
        let many = try ServerProcess(arguments: ["--port", "0", "--public", Self.publicFolder, "--report-log", log])
        let response = try many.client.get("/reports.json")
        let numbers = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(numbers["total"] as? Int == 20_100)
        let estimate = try #require(numbers["visitors"] as? Int)
        #expect(numbers["visitorsExact"] as? Bool == false)
        #expect(abs(estimate - visitors) <= 80, "\(estimate): within five standard errors")
        let margin = Int((Double(estimate) * 1.04 / 64).rounded(.up))
        #expect(numbers["visitorsError"] as? Int == margin)
        let html = try HTMLDocument.parse(try many.client.get("/reports").text)
        let shown = try #require(html.first { $0["data-visitors"] != nil })
        #expect(shown["data-exact"] == "false")
        #expect(shown.text == "\u{2248} \(estimate) \u{00B1} \(margin)")  // narrow no-break spaces, collapsed
        #expect(shown.parent?.text.contains("estimated, 1.6% standard error") == true)
        let filtered = try #require(try JSONSerialization.jsonObject(with: Data(many.client.get("/reports.json?event=long_selected").body)) as? [String: Any])
        #expect(filtered["total"] as? Int == 2_010)
        #expect(filtered["visitors"] as? Int == 100, "every tenth event: visitors 0, 10, 20, … of the thousand")
        #expect(filtered["visitorsExact"] as? Bool == true)
    }
}

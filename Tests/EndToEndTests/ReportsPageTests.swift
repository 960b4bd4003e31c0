import Foundation
import Testing
import TestSupport

/// `/reports`, `/reports.json` and `/reports.jsonl` over an imported log with known events.
@Suite struct ReportsPageTests {
    let folder: TemporaryDirectory
    let server: ServerProcess
    static let publicFolder = ServerProcess.publicFolder

    /// 120 events a minute apart from 2026-11-20T10:00Z: launch and long_selected by turns,
    /// grid for the first 90, list for the rest.
    init() throws {
        folder = try TemporaryDirectory("reports-page")
        let seed = folder.path("seed.jsonl")
        let lines = (0..<120).map { index in
            let time = String(format: "2026-11-20T%02d:%02d:00.000Z", 10 + index / 60, index % 60)
            return #"{"timestamp":"\#(time)","event":"\#(index % 2 == 0 ? "launch" : "long_selected")","#
                + #""layout":"\#(index < 90 ? "grid" : "list")","item":"m-\#(index % 7)","visitor":"v\#(index % 5)","request":"r\#(index)"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: seed, atomically: true, encoding: .utf8)
        let log = folder.path("reports")
        let imported = try ServerProcess(arguments: ["reports", "import", seed, "--report-log", log], waitForListening: false)
        #expect(imported.waitForExit() == 0)
        server = try ServerProcess(arguments: ["--port", "0", "--public", Self.publicFolder, "--report-log", log])
    }

    func json(_ target: String) throws -> [String: Any] {
        let response = try server.client.get(target)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        return try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func theNumbersAsJSONHaveExactlyTheirKeys() throws {
        let all = try json("/reports.json")
        #expect(Set(all.keys) == ["from", "to", "total", "byEvent", "byLayout", "bucket", "series", "visitors", "visitorsExact",
                                  "visitorsError", "dropped", "experiments", "experimentTallies", "setAside", "changes", "source"])
        #expect(all["source"] as? String == "local" && (all["changes"] as? [Any])?.isEmpty == true)
        #expect((all["setAside"] as? [String: Any])?["segments"] as? Int == 0)
        #expect(all["total"] as? Int == 120)
        #expect(all["byEvent"] as? [String: Int] == ["launch": 60, "long_selected": 60])
        #expect(all["byLayout"] as? [String: Int] == ["grid": 90, "list": 30])
        #expect(all["dropped"] as? Int == 0)
        #expect(all["visitors"] as? Int == 5)
        #expect(all["visitorsExact"] as? Bool == true)
        let series = try #require(all["series"] as? [[String: Any]])
        #expect(series.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 120)
        #expect(series.allSatisfy { Set($0.keys) == ["start", "count"] })
    }

    @Test func theWidestRangeAnswersABoundedSeriesThatAddsUpToTheTotal() throws {
        let wide = try json("/reports.json?from=0000-01-01&to=9999-12-31")
        #expect(wide["total"] as? Int == 120)
        #expect(wide["from"] as? String == "0000-01-01T00:00:00.000Z")
        let series = try #require(wide["series"] as? [[String: Any]])
        #expect(series.count <= 1500, "\(series.count) points")
        #expect(series.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 120)
        #expect(wide["bucket"] as? Int == 60, "two hours of events: a point a minute")
        let page = try server.client.get("/reports?from=0000-01-01&to=9999-12-31")
        #expect(page.status == 200 && page.body.count < 200_000)
    }

    @Test func aLogOfManyDecadesIsCountedInWiderBuckets() throws {
        // Three events 57 years apart: 2,970 weeks, the store's widest bucket.
        let seed = folder.path("decades.jsonl")
        let lines = ["1970-01-05T00:00:00.000Z", "1999-06-01T12:00:00.000Z", "2026-11-20T10:00:00.000Z"].map {
            #"{"timestamp":"\#($0)","event":"launch","layout":"grid","visitor":"v","request":"r"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: seed, atomically: true, encoding: .utf8)
        let log = folder.path("decades")
        let imported = try ServerProcess(arguments: ["reports", "import", seed, "--report-log", log], waitForListening: false)
        #expect(imported.waitForExit() == 0)
        let decades = try ServerProcess(arguments: ["--port", "0", "--public", Self.publicFolder, "--report-log", log])
        for target in ["/reports.json", "/reports.json?from=0000-01-01&to=9999-12-31", "/reports.json?from=1900-01-01"] {
            let response = try decades.client.get(target)
            let all = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            let series = try #require(all["series"] as? [[String: Any]])
            #expect(all["total"] as? Int == 3, "\(target)")
            #expect(series.count <= 1500 && series.count >= 1000, "\(target): \(series.count) points")
            #expect(series.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 3, "\(target)")
            #expect(all["bucket"] as? Int == 2 * 7 * 86_400, "\(target): two weeks a point")
        }
    }

    @Test func aRangeAndFiltersNarrowTheNumbers() throws {
        let hour = try json("/reports.json?from=2026-11-20T10:30:00.000Z&to=2026-11-20T11:00:00.000Z")
        #expect(hour["total"] as? Int == 30)
        let launches = try json("/reports.json?event=launch&layout=list")
        #expect(launches["total"] as? Int == 15)
        let day = try json("/reports.json?from=2026-11-21")
        #expect(day["total"] as? Int == 0)
    }

    /// The event filter offers every event the log has a name for, the changes of the toggles
    /// and the catalogue too.
    @Test func theEventFilterOffersEveryEventIncludingChanges() throws {
        let html = try HTMLDocument.parse(try server.client.get("/reports").text)
        let select = try #require(html.first { $0.tag == "select" && $0["name"] == "event" })
        let offered = Set(select.all("option").compactMap { $0["value"] })
        #expect(offered.isSuperset(of: ["launch", "error_shown", "toggles_changed", "content_changed"]), "\(offered)")
    }

    /// A count links to the events it counts, keeping the range and the other filters.
    @Test func eachCountLinksToItsEvents() throws {
        let html = try HTMLDocument.parse(try server.client.get("/reports?layout=list&last=all").text)
        let launch = try #require(html.first { $0.tag == "tr" && $0["data-count"] == "launch" }?.first { $0.tag == "a" })
        #expect(HTMLDocument.decode(launch["href"] ?? "") == "/reports?last=all&event=launch&layout=list")
        let page = try HTMLDocument.parse(try server.client.get(HTMLDocument.decode(launch["href"] ?? "")).text)
        #expect(page.first { $0["data-total"] != nil }?.text == "15", "the list layout's launches")
    }

    @Test func badRangesAndPositionsGet400SayingWhat() throws {
        for (target, says) in [("/reports?from=yesterday", "\"from\" must be"), ("/reports.json?to=soon", "\"to\" must be"),
                               ("/reports?last=fortnight", "\"last\" must be one of"),
                               ("/reports?from=2026-11-21&to=2026-11-20", "\"to\" must be after"),
                               ("/reports?before=nowhere", "\"before\" must be"),
                               ("/reports.jsonl?since=later", "\"since\" must be")] {
            let response = try server.client.get(target)
            #expect(response.status == 400, "\(target)")
            // An HTML page escapes the quotes as entities, a JSON error (the .json and .jsonl URLs) with backslashes.
            #expect(response.text.contains(says.replacingOccurrences(of: "\"", with: "&quot;"))
                    || response.text.contains(says.replacingOccurrences(of: "\"", with: "\\\"")), "\(target)")
        }
    }

    @Test func thePageListsTheNewestFirstAndOlderEventsGoOn() throws {
        let page = try server.client.get("/reports?layout=grid")
        #expect(page.status == 200)
        let link = try #require(page.text.range(of: "\">Older events</a>"))
        let older = String(page.text[..<link.lowerBound].components(separatedBy: "href=\"").last ?? "")
        #expect(older.contains("layout=grid") && older.contains("before="))
        let firstRequests = requests(in: page.text)
        #expect(firstRequests.first == "r89", "the newest grid event first")
        #expect(firstRequests.count == 50)
        let next = try server.client.get(older.replacingOccurrences(of: "&amp;", with: "&"))
        let nextRequests = requests(in: next.text)
        #expect(nextRequests.first == "r39")
        #expect(nextRequests.count == 40)
        #expect(Set(firstRequests).isDisjoint(with: nextRequests))
        #expect(page.text.contains("aria-current=\"page\">Everything"))
    }

    @Test func aPresetIsARangeFromNow() throws {
        let page = try server.client.get("/reports?last=hour")
        #expect(page.status == 200)
        #expect(page.text.contains("aria-current=\"page\">Last hour"))
        #expect(try json("/reports.json?last=hour")["total"] as? Int == 0, "the seeded events are days old")
        #expect(try json("/reports.json?last=all")["total"] as? Int == 120)
    }

    /// Filtering on a preset keeps it: the form sends it again, and a day typed into the form wins.
    @Test func theFilterFormKeepsThePresetItWasDrawnOn() throws {
        let html = try HTMLDocument.parse(try server.client.get("/reports?last=hour").text)
        let form = try #require(html.first { $0.tag == "form" && $0.hasClass("reports-filter") })
        let fields = form.all("input").filter { $0["type"] != "date" }.compactMap { input in
            input["name"].map { "\($0)=\(HTMLDocument.decode(input["value"] ?? ""))" }
        }
        #expect(fields.contains("last=hour"), "\(fields)")
        let filtered = try server.client.get("/reports?" + (fields + ["event=launch", "from=", "to="]).joined(separator: "&"))
        let keepsThePreset = filtered.text.contains("aria-current=\"page\">Last hour")
        #expect(keepsThePreset, "the page filtered is still the last hour")
        #expect(try json("/reports.json?last=hour&event=launch&from=&to=")["total"] as? Int == 0, "the seeded events are days old")
        #expect(try json("/reports.json?last=hour&from=2026-11-20&to=2026-11-20")["total"] as? Int == 120, "the day typed wins")
    }

    /// A bound with a time (a link "since the change") is shown with its time in a field labelled
    /// UTC that sends it back as the same instant: "Filter" keeps the range, not widened to the day.
    @Test func aRangeBoundWithATimeKeepsItsTimeInTheFilterForm() throws {
        let page = try server.client.get("/reports?from=2026-11-20T10:30:00.000Z&to=2026-11-20T11:00")
        let form = try #require(try HTMLDocument.parse(page.text).first { $0.tag == "form" && $0.hasClass("reports-filter") })
        let labels = form.all("label").filter { label in label.first { $0.tag == "input" && ["from", "to"].contains($0["name"]) } != nil }
            .map { $0.first { $0.hasClass("field__label") }?.text ?? "" }
        #expect(labels == ["From (UTC)", "To (UTC)"])
        let inputs = form.all("input").filter { ["from", "to"].contains($0["name"]) }
        #expect(inputs.map { $0["type"] } == ["datetime-local", "datetime-local"])
        #expect(inputs.map { $0["value"] } == ["2026-11-20T10:30:00", "2026-11-20T11:00:00"])
        let sent = inputs.map { "\($0["name"] ?? "")=\($0["value"] ?? "")" }.joined(separator: "&")
        #expect(try json("/reports.json?" + sent)["total"] as? Int == 30, "the half hour, as asked")
        let day = try HTMLDocument.parse(try server.client.get("/reports?from=2026-11-20&to=2026-11-20").text)
        #expect(day.all("input").filter { ["from", "to"].contains($0["name"]) }.map { $0["type"] } == ["date", "date"], "a day stays a day")
    }

    @Test func theRawLogStartsAtSince() throws {
        let response = try server.client.get("/reports.jsonl?since=2026-11-20T11:50:00.000Z")
        #expect(response.status == 200)
        let lines = response.text.split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines.first?.contains("\"request\":\"r110\"") == true)
    }

    /// The request ids of the event rows, in page order.
    func requests(in html: String) -> [String] {
        html.components(separatedBy: "<tbody data-events>").dropFirst().first?
            .components(separatedBy: "</tbody>").first?
            .components(separatedBy: "<td><code>").dropFirst().compactMap { cell -> String? in
                let value = String(cell.prefix { $0 != "<" })
                return value.hasPrefix("r") ? value : nil
            } ?? []
    }
}

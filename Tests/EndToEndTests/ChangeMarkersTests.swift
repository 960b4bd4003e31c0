import Foundation
import Testing
import TestSupport

/// Without a report database: an apply in /admin is a marker on this instance's report chart and
/// experiment chart, with its version, who and note, and a member of /reports.json.
@Suite(.serialized) final class ChangeMarkersTests {
    @Test func anApplyIsMarkedOnTheReportAndExperimentChartsAndListedInJSON() throws {
        let folder = try TemporaryDirectory("change-markers")
        let toggles = folder.path("toggles.json")
        try Data(#"{"experiments": [{"name": "e", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: toggles))
        let server = try ServerProcess(arguments: ["--port", "0", "--toggles", toggles, "--report-log", folder.path("reports")])
        for _ in 0..<3 { #expect(try server.client.get("/").status == 200) }
        #expect(try server.client.get("/reports.json").text.contains("\"changes\":[]"))
        let applied = try AdminTogglesTests.apply(["onboarding": "true"], note: "notice <on>", with: Browser(port: server.port))
        #expect(applied.status == 303, "\(applied.text)")
        try eventually(timeout: 10) { try server.client.get("/reports.jsonl").text.contains("toggles_changed") }
        let numbers = try JSONSerialization.jsonObject(with: Data(try server.client.get("/reports.json").body)) as? [String: Any]
        #expect(numbers?["source"] as? String == "local")
        let changes = numbers?["changes"] as? [[String: Any]] ?? []
        #expect(changes.count == 1 && changes.first?["kind"] as? String == "toggles" && changes.first?["version"] as? Int == 2)
        #expect(changes.first?["note"] as? String == "notice <on>" && changes.first?["at"] is String)
        for target in ["/reports", "/reports/experiments"] {
            let html = try HTMLDocument.parse(try server.client.get(target).text)
            let markers = html.all { $0["data-marker"] != nil }
            #expect(markers.count == 1, "\(target)")
            #expect(markers.first?.all("title").first?.text.hasPrefix("Toggles version 2, by loopback: notice <on>") == true, "\(target)")
            #expect(markers.first?.closest("svg") != nil, "drawn on the chart")
            let listed = html.all { $0["data-change"] != nil }
            #expect(listed.count == 1 && listed.first?.text.contains("T2") == true, "\(target)")
        }
    }
}

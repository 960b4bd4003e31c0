import Foundation
import FeatureToggles
import HomeApp
import HomeAppTestSupport
import MicroHTTP
import Reporting
import Testing
import TestSupport

/// The cached home page is byte for byte what an uncached render gives the same visitor.
@Suite struct PageCacheTests {
    static let publicFolder = ServerProcess.publicFolder
    /// The servers' report logs and content; removed when the test is over, after it has shut its apps down.
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("cache") }

    func start(content: String? = nil) throws -> (TestServer, HomeApplication) {
        var configuration = AppConfiguration(publicFolder: Self.publicFolder, contentFile: content)
        configuration.reportLog = folder.path("reports-\(UUID().uuidString).jsonl")
        configuration.secret = "the same secret for both servers"
        let app = try HomeApplication(configuration: configuration)
        return (try TestServer(router: app.makeRouter()), app)
    }

    @Test(arguments: ["/?layout=grid", "/?layout=list", "/"])
    func aCachedPageEqualsAnUncachedRender(target: String) throws {
        let (warm, warmApp) = try start()
        let (cold, coldApp) = try start()
        defer { warmApp.shutdown(); coldApp.shutdown() }
        let first = Browser(port: warm.port)
        try first.get(target)  // renders and caches for the first visitor
        let second = Browser(port: warm.port)
        try second.get("/healthz")
        let visitor = [("Cookie", "visitor=0123456789abcdef0123456789abcdef")]
        let cached = try HTTPClient(port: warm.port).get(target, headers: visitor)
        let rendered = try HTTPClient(port: cold.port).get(target, headers: visitor)
        #expect(cached.status == 200)
        #expect(cached.body == rendered.body)
        #expect(Browser.csrfToken(in: cached.text) != first.csrfToken)
    }

    /// A hit builds no controllers; it reports what they reported when the page was rendered.
    @Test(arguments: [#"{"onboarding": true, "experiment": {"name": "home-hero", "groups": ["a", "b"]}}"#, "{}"])
    func aCachedPageReportsWhatARenderReports(toggles: String) async throws {
        let visitor = "0123456789abcdef0123456789abcdef"
        func reported(warm: Bool) async throws -> [ReportEvent] {
            let fixture = try AppFixture(toggles: toggles)
            let earlier = warm ? 1 : 0
            if warm { _ = try HTTPClient(port: fixture.port).get("/?layout=grid") }  // renders and caches
            let response = try HTTPClient(port: fixture.port).get("/?layout=grid", headers: [("Cookie", "visitor=\(visitor)")])
            #expect(response.status == 200)
            try await eventually { try fixture.events().filter { $0.name == .launch }.count == earlier + 1 }
            return try fixture.events().filter { $0.visitor == visitor }.map { event in
                #expect(event.request == response.header("X-Request-Id"))
                var event = event
                event.timestamp = Date(timeIntervalSince1970: 0)
                event.request = nil
                return event
            }
        }
        let rendered = try await reported(warm: false)
        #expect(rendered.contains { $0.name == .launch && $0.layout == "grid" })
        #expect(try await reported(warm: true) == rendered)
    }

    /// A hit's lines for a visitor in an experiment come from templates kept by their groups,
    /// device and cohort: each visit's lines carry its own, and new toggles make new ones.
    @Test func visitorsInAnExperimentGetTheirOwnGroupDeviceAndCohortFromTheCache() async throws {
        let toggles = #"{"defaultLayout": "grid", "experiments": [{"name": "home-layout", "groups": ["#
            + #"{"name": "list", "layout": "list"}, {"name": "grid", "layout": "grid"}]}]}"#
        let fixture = try AppFixture(toggles: toggles)
        let phone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"
        // Two visitors in each group, each asking once from a desktop and once from a phone.
        let decisions = FeatureDecisions(toggles: try Toggles(json: Data(toggles.utf8), file: "toggles.json"))
        var visitors: [String: [String]] = [:]
        for number in 0..<64 where visitors.values.map(\.count).reduce(0, +) < 4 {
            let visitor = String(format: "%032x", 0xfeed_0000 + number)
            let group = try #require(decisions.assignments(for: visitor).first?.group.name)
            if visitors[group, default: []].count < 2 { visitors[group, default: []].append(visitor) }
        }
        func lines(of visitor: String, agent: String) async throws -> [ReportEvent] {
            let response = try HTTPClient(port: fixture.port).get(
                "/?layout=grid", headers: [("Cookie", "visitor=\(visitor); onboarded=1"), ("User-Agent", agent)])
            #expect(response.status == 200)
            // Other lines (a reload's, an earlier visit's) may land first: wait for this hit's launch.
            let request = response.header("X-Request-Id")
            try await eventually { try fixture.events().contains { $0.request == request && $0.name == .launch } }
            return try fixture.events().filter { $0.request == request }
        }
        _ = try HTTPClient(port: fixture.port).get("/?layout=grid")  // renders and caches
        for (group, members) in visitors.sorted(by: { $0.key < $1.key }) {
            for visitor in members {
                for (agent, device) in [("Mozilla/5.0 (X11; Linux x86_64)", "desktop"), (phone, "phone")] {
                    let events = try await lines(of: visitor, agent: agent)
                    #expect(events.contains { $0.name == .launch })
                    for event in events {
                        #expect(event.visitor == visitor)
                        #expect(event.properties["experiment.home-layout"] == group)
                        #expect(event.properties["device"] == device)
                        #expect(event.properties["cohort"] == "returning")
                        // Their group's layout is not the one they asked for: reported against it.
                        #expect(event.properties["assigned"] == (group == "list" ? "list" : nil))
                    }
                }
            }
        }
        // Renamed: the cached page stays, its lines take the new toggles' groups.
        try fixture.writeToggles(toggles.replacingOccurrences(of: "home-layout", with: "home-layout-2"))
        let visitor = try #require(visitors["grid"]?.first)
        let events = try await lines(of: visitor, agent: "curl/8")
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0.properties["experiment.home-layout-2"] != nil && $0.properties["experiment.home-layout"] == nil })
    }

    @Test func aStreamGoingLiveIsNotHiddenByTheCache() throws {
        // The default catalogue with its first upcoming stream starting three seconds from now.
        let url = ServerProcess.repositoryRoot.appendingPathComponent("Config/content.json")
        var catalogue = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var items = try #require(catalogue["items"] as? [[String: Any]])
        let index = try #require(items.firstIndex { ($0["startsAt"] as? String).map { $0 > "2026" } ?? false
            && ISO8601DateFormatter().date(from: $0["startsAt"] as! String)! > Date() })
        let starts = Date().addingTimeInterval(3)
        items[index]["startsAt"] = ISO8601DateFormatter().string(from: starts)
        catalogue["items"] = items
        let file = folder.url.appendingPathComponent("going-live.json")
        try JSONSerialization.data(withJSONObject: catalogue).write(to: file)
        let (server, app) = try start(content: file.path)
        defer { app.shutdown() }
        let id = try #require(items[index]["id"] as? String)
        func tile() throws -> String {
            let page = try HTTPClient(port: server.port).get("/?layout=list", headers: [("Cookie", "onboarded=1")]).text
            let row = try #require(page.range(of: "posters/\(id)."))  // posters/<id>.<fingerprint>.svg
            return String(page[row.upperBound...].prefix(300))
        }
        #expect(try tile().contains("Starts "))
        #expect(try tile().contains("Starts "))  // served from the cache
        try eventually("the tile says Live now once the stream starts at \(starts)", timeout: 15) { try tile().contains("Live now") }
    }
}

import Foundation
import HomeApp
import HomeAppTestSupport
import Testing
import TestSupport

/// Play, progress and My List.
@Suite struct WatchTests {
    /// m-001 runs 112 minutes.
    static let film = "m-001"
    static let filmSeconds = 112 * 60

    @Test func playReportsPlayStartedAndOpensWatchIDASavedPositionShowsThereAndOnTheTitlesPage() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let item = try browser.page("/long/\(Self.film)").html
        #expect(item.button(labelled: "Resume") == nil)
        let played = try browser.press(try #require(item.button(labelled: "Play")))
        #expect(played.status == 303 && played.location == "/watch/\(Self.film)")
        let started = try #require(try await fixture.event(named: .playStarted))
        #expect(started.item == Self.film && started.visitor == browser.cookies["visitor"])
        #expect(started.properties["duration"] == "\(Self.filmSeconds)")

        let watch = try browser.follow(played).html()
        let range = try #require(watch.first { $0.tag == "input" && $0["type"] == "range" })
        #expect(range["name"] == "position" && range["value"] == "0" && range["max"] == "\(Self.filmSeconds)")
        let saved = try browser.press(try #require(watch.button(labelled: "Save position")), setting: ["position": "600"])
        #expect(saved.status == 303 && saved.location == "/watch/\(Self.film)")
        let progress = try #require(try await fixture.event(named: .playProgress))
        #expect(progress.item == Self.film && progress.properties["position"] == "600")
        #expect(progress.properties["duration"] == "\(Self.filmSeconds)")

        let again = try browser.follow(saved).html()
        #expect(again.first { $0.tag == "input" && $0["type"] == "range" }?["value"] == "600")
        #expect(again.first { $0.tag == "output" }?.text == "10:00 of 1:52:00")
        let title = try browser.page("/long/\(Self.film)").html
        #expect(title.button(labelled: "Resume") != nil)
        #expect(title.first { $0.hasClass("item-screen__progress") }?.text == "Watched 10:00 of 1:52:00")
    }

    @Test func thePagesScriptPostsThePositionWithEnhancedAndGets204WrittenAllTheSame() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        try browser.get("/watch/\(Self.film)")
        let answer = try browser.post("/watch/\(Self.film)/progress", withToken: [("position", "90"), ("enhanced", "1")])
        #expect(answer.status == 204)
        #expect(try await fixture.event(named: .playProgress)?.properties["position"] == "90")
    }

    @Test(arguments: ["abc", "-1", "6721", "", "99999999999999999999", "1.5", "+5", " 5", "5e1"])
    func aPositionThatIsNotWholeSecondsWithinTheTitleIsA400ThatSaysSoAndWritesNothing(_ position: String) throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        try browser.get("/watch/\(Self.film)")
        let answer = try browser.post("/watch/\(Self.film)/progress", withToken: [("position", position)])
        #expect(answer.status == 400)
        #expect(try answer.html().errorMessage == "The position must be a whole number of seconds from 0 to 6720.")
        try browser.get("/long/\(Self.film)")
        #expect(try fixture.events().allSatisfy { $0.name != .playProgress })
    }

    @Test func liveStreamsAndUnknownTitlesDoNotPlay404WithAPageThatSaysWhy() throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        try browser.get("/")
        let live = try browser.post("/watch/l-001/play", withToken: [])
        #expect(live.status == 404)
        #expect(try live.html().errorMessage?.contains("is a live stream") == true)
        #expect(try browser.post("/my-list/nope", withToken: [("action", "add")]).status == 404)
        let unsaid = try browser.post("/my-list/\(Self.film)", withToken: [("action", "keep")])
        #expect(unsaid.status == 400)
        #expect(try unsaid.html().errorMessage == "Say whether to add the title to My List or remove it (action add or remove).")
        // Last: an error page carries no token, which this client would then send.
        #expect(try browser.get("/watch/nope").status == 404)
        // A post without the token is refused before anything is written.
        #expect(try browser.post("/watch/\(Self.film)/play", form: []).status == 403)
        #expect(try fixture.events().allSatisfy { $0.name != .playStarted && $0.name != .myListAdded })
    }

    @Test func addToMyListAndRemoveReportedOnceEachTheButtonFollowsARepeatedAddReportsNothing() async throws {
        let fixture = try AppFixture()
        let browser = fixture.browser()
        let item = try browser.page("/short/s-001").html
        #expect(item.button(labelled: "Play") != nil)
        let added = try browser.press(try #require(item.button(labelled: "Add to My List")))
        #expect(added.status == 303 && added.location == "/short/s-001")
        #expect(try await fixture.event(named: .myListAdded)?.item == "s-001")
        let listed = try browser.follow(added).html()
        #expect(listed.button(labelled: "Add to My List") == nil)
        // The same form posted again (a second tab, Back): nothing happened, nothing is reported.
        #expect(try browser.post("/my-list/s-001", withToken: [("action", "add")]).status == 303)
        let removed = try browser.press(try #require(listed.button(labelled: "Remove from My List")))
        #expect(removed.status == 303)
        #expect(try await fixture.event(named: .myListRemoved)?.item == "s-001")
        #expect(try browser.follow(removed).html().button(labelled: "Add to My List") != nil)
        #expect(try fixture.events().filter { $0.name == .myListAdded }.count == 1)
    }

    @Test func aRestartedServerReadsTheVisitorsProgressAndListBackFromTheReportLog() async throws {
        let logs = try TemporaryDirectory("watch-tests")
        defer { logs.remove() }
        let path = logs.url.appendingPathComponent("reports").path
        var visitor: String?
        do {
            let first = try AppFixture { $0.reportLog = path }
            let browser = first.browser()
            try browser.get("/long/\(Self.film)")
            #expect(try browser.post("/watch/\(Self.film)/progress", withToken: [("position", "1200")]).status == 303)
            #expect(try browser.post("/my-list/s-001", withToken: [("action", "add")]).status == 303)
            visitor = browser.cookies["visitor"]
            try await eventually { try ReportSegments.text(of: path).contains("my_list_added") }
        }
        let second = try AppFixture { $0.reportLog = path }
        let browser = second.browser()
        #expect(visitor != nil)
        browser.setCookie("visitor", visitor)
        let progressLine = { try browser.page("/long/\(Self.film)").html.first { $0.hasClass("item-screen__progress") }?.text }
        try await eventually { try progressLine() != nil }
        #expect(try progressLine() == "Watched 20:00 of 1:52:00")
        #expect(try browser.page("/short/s-001").html.button(labelled: "Remove from My List") != nil)
        #expect(try browser.page("/watch/\(Self.film)").html.first { $0.tag == "input" && $0["type"] == "range" }?["value"]
                == "1200")
    }
}

extension WatchTests {
    @Test func pastTheVisitorsEventBudgetAPositionGets429WithRetryAfterAndWritesNothing() async throws {
        let fixture = try AppFixture { $0.reportVisitorRate = 0.001; $0.reportVisitorBurst = 2 }
        let browser = fixture.browser()
        try browser.get("/watch/\(Self.film)")
        for position in ["10", "20"] {
            #expect(try browser.post("/watch/\(Self.film)/progress", withToken: [("position", position)]).status == 303)
        }
        let refused = try browser.post("/watch/\(Self.film)/progress", withToken: [("position", "30")])
        #expect(refused.status == 429 && refused.header("Retry-After") != nil)
        _ = try await fixture.events(named: .playProgress, count: 2)
        #expect(try fixture.events().filter { $0.name == .playProgress }.map { $0.properties["position"] } == ["10", "20"])
        #expect(try browser.page("/watch/\(Self.film)").html.first { $0["type"] == "range" }?["value"] == "20")
    }
}

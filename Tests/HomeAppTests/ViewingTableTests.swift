import Foundation
import HomeAppTestSupport
import Reporting
import Testing
import TestSupport

@testable import HomeApp

/// The compact viewing store: least recently used out first, activities kept word for word, and
/// a visitor dropped gets their rows back from the report log off the request threads.
@Suite struct ViewingTableTests {
    // Waits are up to 60 s: the rows' look-ups and compressed forms run at low priority, behind
    // the whole suite's servers on two cores; a wait ends as soon as its condition holds.
    static func activity(_ generator: inout SplitMix64) -> ViewingActivity {
        var activity = ViewingActivity()
        for _ in 0..<Int.random(in: 0..<30, using: &generator) {
            let item = "t-\(Int.random(in: 0..<20, using: &generator))"
            let name: ReportEvent.Name = [.playStarted, .playProgress, .myListAdded, .myListRemoved].randomElement(using: &generator)!
            let properties = name == .playProgress
                ? ["position": "\(Int.random(in: 0..<7200, using: &generator))", "duration": "7200"]
                : name == .playStarted ? ["duration": "\(Int.random(in: 60..<7200, using: &generator))"] : [:]
            activity.apply(ViewingActivityTests.event(name, item, properties))
        }
        return activity
    }

    @Test(arguments: 0..<20)
    func activitiesComeBackWordForWord(seed: UInt64) {
        var generator = SplitMix64(state: seed)
        var titles = TitleNumbers()
        for _ in 0..<20 {
            let activity = Self.activity(&generator)
            #expect(ViewingWords.decode(ViewingWords.encode(activity, titles: &titles), titles: titles) == activity)
        }
    }

    @Test func theLeastRecentlyUsedGoFirst() {
        var table = ViewingTable(capacity: 3, overflowBudget: 1 << 20)
        for key: UInt64 in [1, 2, 3] { table.set([0], for: key) }
        #expect(table.keysOldestFirst == [1, 2, 3])
        _ = table.words(for: 1)  // read: now the most recent
        table.set([0], for: 4)
        #expect(table.keysOldestFirst == [3, 1, 4])
        #expect(table.words(for: 2) == nil)
        table.set([1 << 8, 7], for: 3)  // written: the most recent
        table.set([0], for: 5)
        #expect(table.keysOldestFirst == [4, 3, 5])
        #expect(table.words(for: 3) == [1 << 8, 7])
    }

    @Test func longActivitiesAreBoundedByTheirBudget() {
        let long = [UInt32(20 << 8)] + [UInt32](repeating: 9, count: 20)
        var table = ViewingTable(capacity: 100, overflowBudget: 3 * ViewingTable.overflowCost(long.count))
        for key: UInt64 in 1...5 { table.set(long, for: key) }
        #expect(table.keysOldestFirst == [3, 4, 5])
        #expect(table.overflowBytes == 3 * ViewingTable.overflowCost(long.count))
        table.set([0], for: 4)  // shorter now: back in its slot
        #expect(table.overflowBytes == 2 * ViewingTable.overflowCost(long.count))
        #expect(table.words(for: 5) == long)
    }

    /// The visitor's own rows (Trending now comes once the statistics have counted the plays).
    static func own(_ browser: Browser) throws -> [String] {
        ViewingRowsTests.names(try browser.page("/").html).filter { $0 != "trending" }
    }

    @Test func aVisitorDroppedAsTheLeastRecentGetsThePageAtOnceWithoutRowsThenTheirRowsBack() async throws {
        let fixture = try AppFixture { $0.viewingVisitors = 2 }
        let first = fixture.browser()
        try first.get("/")
        #expect(try first.post("/watch/m-001/play", withToken: []).status == 303)
        #expect(try first.post("/my-list/m-002", withToken: [("action", "add")]).status == 303)
        #expect(try Self.own(first) == ["continue-watching", "my-list"])
        for _ in 0..<2 {
            let other = fixture.browser()
            try other.get("/")
            #expect(try other.post("/watch/m-003/play", withToken: []).status == 303)
        }
        #expect(fixture.app.services.viewing.activity(for: try #require(first.cookies["visitor"])) == nil)
        // Its events must be in the log for the look-up to find them.
        _ = try await fixture.events(named: .myListAdded)
        #expect(try Self.own(first).isEmpty)
        try await eventually(timeout: 60) { try Self.own(first) == ["continue-watching", "my-list"] }
    }
}

/// The memory a million visitors' viewing takes, measured by hand (`VIEWING_MEMORY=1 swift test
/// --filter ViewingMemory`): the process's resident memory before and after, one count at a time.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["VIEWING_MEMORY"] != nil))
struct ViewingMemory {
    /// The resident set, from `/proc/self/status`.
    static func heapBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    @Test(arguments: [0, 10])
    func aMillionVisitors(percentWithTenTitles: Int) {
        let before = Self.heapBytes()
        let history = ViewingHistory(capacity: 1_000_000, loading: false)
        for index in 0..<1_000_000 {
            let visitor = String(format: "%032x", index)
            history.apply(ViewingActivityTests.event(.playStarted, "m-\(index % 500)", visitor: visitor, ["duration": "6000"]))
            if index % 100 < percentWithTenTitles {
                for title in 1...4 { history.apply(ViewingActivityTests.event(.playStarted, "s-\(title)", visitor: visitor)) }
                for title in 1...5 { history.apply(ViewingActivityTests.event(.myListAdded, "l-\(title)", visitor: visitor)) }
            }
        }
        let bytes = Self.heapBytes() - before
        print("viewing memory: \(history.count) visitors, \(percentWithTenTitles)% with 5 + 5 titles: \(bytes / 1024 / 1024) MB, \(bytes / history.count) bytes each")
        #expect(history.count == 1_000_000 || percentWithTenTitles > 0)
        #expect(bytes <= 64 << 20)
        withExtendedLifetime(history) {}
    }
}

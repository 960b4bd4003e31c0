import Foundation
@testable import HomeApp
import Testing
import TestSupport

/// The table of the visitors' titles behind the counts (`PlayVisitors`): titles beyond a row's
/// seven, beyond a visitor's 100, visitors leaving for room, and days leaving the window.
@Suite struct PlayVisitorsTests {
    static let now = PlayStatisticsTests.now

    static func start(_ visitor: String, _ item: String, daysAgo: Double) -> PlayStatistics.Start {
        PlayStatistics.Start(time: now.addingTimeInterval(-daysAgo * 86_400), visitor: visitor, item: item)
    }

    /// Feeds `starts` in order and keeps, beside the counts, each visitor's starts since they were
    /// last taken in: a visitor who left and came back counts only what came after. Returns the
    /// counts and the starts of the visitors held at the end.
    static func feed(_ starts: [PlayStatistics.Start], into counts: inout PlayCounts) -> (left: Int, kept: [PlayStatistics.Start]) {
        var since: [String: [PlayStatistics.Start]] = [:]
        var left = 0
        for start in starts {
            if !counts.holds(start.visitor) { since[start.visitor] = [] }
            counts.add(start)
            since[start.visitor, default: []].append(start)
            for visitor in since.keys where !counts.holds(visitor) {
                since[visitor] = nil
                left += 1
            }
        }
        return (left, since.values.flatMap { $0 })
    }

    @Test func aVisitorsTitlesBeyondTheRowsSevenAreCountedInChunksAndComeBackInOrder() {
        var counts = PlayCounts()
        let items = (0..<23).map { "t\($0)" }
        var starts = items.enumerated().map { Self.start("many", $0.element, daysAgo: 5 - Double($0.offset) / 10) }
        starts += [Self.start("other", "t0", daysAgo: 1), Self.start("other", "t20", daysAgo: 1)]
        for start in starts { counts.add(start) }
        counts.advance(to: Self.now)
        #expect(counts.titles(of: "many") == items)
        #expect(counts.chunksUsed == 6, "16 titles beyond seven, three a chunk")
        let statistics = counts.statistics(now: Self.now, version: 1)
        #expect(statistics.related == PlayStatisticsTests.related(starts, at: Self.now))
        #expect(statistics.related["t20"]?.first == "t0", "two visitors started both")
    }

    @Test func aVisitorsTitlesBeyondTheHundredthAreLeftOutAsTheReferenceLeavesThemOut() {
        var counts = PlayCounts()
        var starts = (0..<110).map { Self.start("avid", "t\($0)", daysAgo: 3 - Double($0) / 1000) }
        starts += [Self.start("b", "t105", daysAgo: 1), Self.start("b", "t1", daysAgo: 1), Self.start("b", "t2", daysAgo: 1)]
        for start in starts { counts.add(start) }
        counts.advance(to: Self.now)
        #expect(counts.titles(of: "avid") == (0..<100).map { "t\($0)" })
        let statistics = counts.statistics(now: Self.now, version: 1)
        #expect(statistics.related == PlayStatistics.compute(starts, now: Self.now, version: 1).related)
        #expect(statistics.related["t105"] == ["t1", "t2"], "the 106th title of the avid visitor is not theirs")
    }

    @Test func aDayLeavingTheWindowTakesTheTitlesLastStartedOnItOutOfChunksAndRowsAndTheVisitorAtTheEnd() {
        var counts = PlayCounts()
        // Title i first started 40 - i days ago, t3 again 10.5 days ago; starts arrive day by day.
        let items = (0..<20).map { "t\($0)" }
        var starts = items.enumerated().map { Self.start("v", $0.element, daysAgo: 40 - Double($0.offset)) }
        starts += [Self.start("v", "t3", daysAgo: 10.5), Self.start("w", "t15", daysAgo: 20), Self.start("w", "t3", daysAgo: 20)]
        starts.sort { $0.time < $1.time }
        var next = 0, most = 0
        for day in stride(from: 41, through: -21, by: -1) {
            let at = Self.now.addingTimeInterval(-Double(day) * 86_400)
            while next < starts.count, starts[next].time <= at { counts.add(starts[next]); next += 1 }
            counts.advance(to: at)
            let arrived = Array(starts[..<next])
            let firstDay = PlayCounts.day(at) - PlayCounts.coViewingDays + 1
            let expected = items.filter { item in
                (arrived.filter { $0.visitor == "v" && $0.item == item }.map { PlayCounts.day($0.time) }.max() ?? .min) >= firstDay
            }
            #expect(counts.titles(of: "v") == expected, "as of \(day) days ago")
            #expect(counts.chunksUsed == max(0, expected.count - 5) / 3, "a chunk for each three titles beyond seven, as of \(day) days ago")
            most = max(most, counts.chunksUsed)
            #expect(counts.statistics(now: at, version: 1).related == PlayStatisticsTests.related(arrived, at: at), "as of \(day) days ago")
        }
        #expect(most == 5 && next == starts.count)
        #expect(!counts.holds("v") && counts.visitorCount == 0)
    }

    @Test(arguments: [11, 12] as [UInt64])
    func beyondItsCapacityTheLeastRecentVisitorsLeaveWithTheirPairsAndTheCountsAreThoseOfTheVisitorsKept(_ seed: UInt64) {
        let starts = PlayStatisticsTests.synthetic(seed: seed, visitors: 40, starts: 1500).sorted { $0.time < $1.time }
        var counts = PlayCounts(visitorCapacity: 12)
        counts.advance(to: Self.now.addingTimeInterval(-10 * 86_400))
        let (left, kept) = Self.feed(starts, into: &counts)
        counts.advance(to: Self.now)
        #expect(left > 100 && counts.visitorCount == 12)
        #expect(counts.statistics(now: Self.now, version: 1).related == PlayStatisticsTests.related(kept, at: Self.now))
        // Those who left started nothing after the day of the last start of any visitor kept.
        let lastDay = { (visitor: String) in starts.filter { $0.visitor == visitor }.map { PlayCounts.day($0.time) }.max()! }
        let visitors = Set(starts.map(\.visitor))
        let keptDays = visitors.filter { counts.holds($0) }.map(lastDay), goneDays = visitors.filter { !counts.holds($0) }.map(lastDay)
        #expect(goneDays.max()! <= keptDays.min()!)
    }

    @Test(arguments: [13, 14] as [UInt64])
    func withTheChunksAllTakenTheLeastRecentVisitorsLeaveForOneMoreAndTheCountsStayThoseOfTheVisitorsKept(_ seed: UInt64) {
        let starts = PlayStatisticsTests.synthetic(seed: seed, visitors: 30, starts: 2000).sorted { $0.time < $1.time }
        var counts = PlayCounts(chunkLimit: 20)
        let (left, kept) = Self.feed(starts, into: &counts)
        #expect(left > 10 && counts.chunksUsed <= 20)
        for day in [0.0, 5, 12] {
            let at = Self.now.addingTimeInterval(day * 86_400)
            counts.advance(to: at)
            #expect(counts.statistics(now: at, version: 1).related == PlayStatisticsTests.related(kept, at: at), "\(day) days on")
        }
    }

    @Test func aVisitorWhoLeftAndCameBackCountsOnlyTheirStartsSinceAndTheIndexFindsEveryoneAfterManyLeave() {
        var counts = PlayCounts(visitorCapacity: 50)
        var random = SplitMix64(state: 15)
        // A few visitors come back often and stay, most come and leave.
        let starts = (0..<3000).map { index in
            let visitor = Bool.random(using: &random) ? Int.random(in: 0..<20, using: &random) : Int.random(in: 0..<400, using: &random)
            return Self.start("v\(visitor)", "t\(Int.random(in: 0..<12, using: &random))", daysAgo: 20 - Double(index) / 200)
        }
        let (left, kept) = Self.feed(starts, into: &counts)
        counts.advance(to: Self.now)
        #expect(left > 500 && counts.visitorCount == 50)
        #expect(Set(kept.map(\.visitor)).count == 50)
        #expect(counts.statistics(now: Self.now, version: 1).related == PlayStatisticsTests.related(kept, at: Self.now))
    }
}

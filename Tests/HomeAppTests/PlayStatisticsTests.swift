import Foundation
@testable import HomeApp
import Testing
import TestSupport

/// Trending now and Because you watched, against counts made from a synthetic log.
@Suite struct PlayStatisticsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Starts spread over 40 days (some in the future, some repeated), from a seed.
    static func synthetic(seed: UInt64, visitors: Int = 60, items: Int = 25, starts: Int = 3000) -> [PlayStatistics.Start] {
        var random = SplitMix64(state: seed)
        return (0..<starts).map { _ in
            let age = Double.random(in: -3600...(40 * 86_400), using: &random)
            // A few popular titles, so that counts differ and ties are rarer.
            let item = Int.random(in: 0..<items, using: &random) % (Bool.random(using: &random) ? 5 : items)
            return PlayStatistics.Start(time: now.addingTimeInterval(-age), visitor: "v\(Int.random(in: 0..<visitors, using: &random))",
                                        item: "i\(item)")
        }
    }

    /// The most first, ties by id: the rule the statistics follow, applied to counts made by brute force.
    static func ranked(_ counts: [String: Int], limit: Int = PlayStatistics.limit) -> [String] {
        counts.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(limit).map(\.key)
    }

    /// Whether `start` is in the trending window as of `now`: its minute is one of the last 1,440.
    static func trends(_ start: PlayStatistics.Start, at now: Date) -> Bool {
        let first = (now.timeIntervalSince1970 / 60).rounded(.down) * 60 - 1439 * 60
        return start.time.timeIntervalSince1970 >= first && start.time.timeIntervalSince1970 < first + 1440 * 60
    }

    /// Whether `start` is in the co-viewing window as of `now`: its UTC day is one of the last 30.
    static func coViews(_ start: PlayStatistics.Start, at now: Date) -> Bool {
        let first = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 29 * 86_400
        return start.time.timeIntervalSince1970 >= first && start.time.timeIntervalSince1970 < first + 30 * 86_400
    }

    static func trendingCounts(_ starts: [PlayStatistics.Start], at now: Date) -> [String: Int] {
        var counts: [String: Int] = [:]
        for start in starts where trends(start, at: now) { counts[start.item, default: 0] += 1 }
        return counts
    }

    /// Per title, the titles most often started by the same visitors in the co-viewing window.
    static func related(_ starts: [PlayStatistics.Start], at now: Date) -> [String: [String]] {
        var titles: [String: Set<String>] = [:]
        for start in starts where coViews(start, at: now) { titles[start.visitor, default: []].insert(start.item) }
        var related: [String: [String]] = [:]
        for item in Set(starts.map(\.item)) {
            var together: [String: Int] = [:]
            for seen in titles.values where seen.contains(item) {
                for other in seen where other != item { together[other, default: 0] += 1 }
            }
            if !together.isEmpty { related[item] = ranked(together) }
        }
        return related
    }

    /// The counts kept as the starts arrive, fed `starts` in the order given and advanced to `now`.
    static func counted(_ starts: [PlayStatistics.Start], at now: Date) -> PlayStatistics {
        var counts = PlayCounts()
        for start in starts { counts.add(start) }
        counts.advance(to: now)
        return counts.statistics(now: now, version: 1)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func trendingNowCountsTheStartsOfTheLast1440MinutesPerTitleComputedAndKeptAlike(_ seed: UInt64) {
        let starts = Self.synthetic(seed: seed)
        let expected = Self.ranked(Self.trendingCounts(starts, at: Self.now))
        #expect(expected.count == PlayStatistics.limit)
        #expect(PlayStatistics.compute(starts, now: Self.now, version: 1).trending == expected)
        #expect(Self.counted(starts, at: Self.now).trending == expected)
        #expect(Self.counted(starts.shuffled(), at: Self.now).trending == expected, "the order of arrival does not matter")
    }

    @Test func theFirstOfTheTrendingWindowsMinutesCountsAndTheMillisecondBeforeItNoMore() {
        let minute = (Self.now.timeIntervalSince1970 / 60).rounded(.down) * 60
        let first = Date(timeIntervalSince1970: minute - 1439 * 60)
        let at = { (time: Date, item: String, visitor: Int) in PlayStatistics.Start(time: time, visitor: "v\(visitor)", item: item) }
        let starts = [at(first, "edge", 1), at(first, "edge", 2), at(first.addingTimeInterval(-0.001), "gone", 3),
                      at(first.addingTimeInterval(-0.001), "gone", 4), at(first.addingTimeInterval(-0.001), "gone", 5),
                      at(Self.now, "now", 6)]
        #expect(PlayStatistics.compute(starts, now: Self.now, version: 1).trending == ["edge", "now"])
        #expect(Self.counted(starts, at: Self.now).trending == ["edge", "now"])
        // A minute later the edge's minute has left too.
        #expect(Self.counted(starts, at: Self.now.addingTimeInterval(60)).trending == ["now"])
    }

    @Test(arguments: [6, 7] as [UInt64])
    func theKeptCountsSlideOver40DaysAsTheStartsArriveEqualToTheCountsMadeDirectly(_ seed: UInt64) {
        let starts = Self.synthetic(seed: seed).sorted { $0.time < $1.time }
        var counts = PlayCounts()
        var next = 0
        let end = Self.now.addingTimeInterval(3600)
        let moments = Array(stride(from: -41 * 86_400.0, to: 3600, by: 7 * 3600 + 17)).map { Self.now.addingTimeInterval($0) } + [end]
        var compared = 0
        for at in moments {
            while next < starts.count, starts[next].time <= at { counts.add(starts[next]); next += 1 }
            counts.advance(to: at)
            let kept = counts.statistics(now: at, version: 1)
            let arrived = Array(starts[..<next])
            #expect(kept.trending == Self.ranked(Self.trendingCounts(arrived, at: at)), "trending at \(at)")
            #expect(kept.related == Self.related(arrived, at: at), "related at \(at)")
            compared += 1
        }
        #expect(compared > 100 && next == starts.count)
    }

    @Test(arguments: [4, 5] as [UInt64])
    func becauseYouWatchedTitlesStartedByTheVisitorsWhoStartedXInTheLast30DaysCountedPerVisitor(_ seed: UInt64) {
        let starts = Self.synthetic(seed: seed)
        let expected = Self.related(starts, at: Self.now)
        #expect(expected.count > 10)
        #expect(PlayStatistics.compute(starts, now: Self.now, version: 1).related == expected)
        let statistics = Self.counted(starts.shuffled(), at: Self.now)
        #expect(statistics.related == expected)
        // Never the title itself, never one the visitor finished.
        let first = statistics.related["i0"] ?? []
        #expect(statistics.becauseYouWatched("i0", excluding: Set(first.prefix(2))) == Array(first.dropFirst(2)))
    }

    @Test func becauseYouWatchedATitleNobodyElseStartedIsTrendingNowWithoutTheTitleAndThoseFinished() {
        let at = { (visitor: String, item: String) in PlayStatistics.Start(time: Self.now.addingTimeInterval(-60), visitor: visitor, item: item) }
        let starts = [at("a", "x"), at("a", "y"), at("b", "x"), at("c", "z"), at("d", "lonely")]
        let statistics = Self.counted(starts, at: Self.now)
        #expect(statistics.trending == ["x", "lonely", "y", "z"])
        #expect(statistics.becauseYouWatched("y", excluding: []) == ["x"])
        #expect(statistics.becauseYouWatched("lonely", excluding: ["y"]) == ["x", "z"])
    }

    /// Others did start titles with X, but the visitor finished them all or they are off the
    /// catalogue: the row falls back to Trending now rather than going away.
    @Test func becauseYouWatchedFallsBackToTrendingNowWhenNoRelatedTitleIsLeft() {
        let at = { (visitor: String, item: String) in PlayStatistics.Start(time: Self.now.addingTimeInterval(-60), visitor: visitor, item: item) }
        let starts = [at("a", "x"), at("a", "y"), at("b", "x"), at("b", "w"), at("c", "z"), at("c", "v"), at("d", "z")]
        let statistics = Self.counted(starts, at: Self.now)
        #expect(statistics.related["x"] == ["w", "y"])
        #expect(statistics.becauseYouWatched("x", excluding: ["w"]) == ["y"])
        #expect(statistics.becauseYouWatched("x", excluding: ["w", "y"]) == ["z", "v"])
        #expect(statistics.becauseYouWatched("x", excluding: ["w"]) { $0 != "y" } == ["z", "v"])
        #expect(statistics.becauseYouWatched("x", excluding: []) { $0 != "z" } == ["w", "y"])
    }
}

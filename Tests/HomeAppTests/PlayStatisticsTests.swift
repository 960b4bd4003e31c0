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

    @Test(arguments: [1, 2, 3] as [UInt64])
    func trendingNowStartsInTheLast24HoursCountedPerTitle(_ seed: UInt64) {
        let starts = Self.synthetic(seed: seed)
        let from = Self.now.addingTimeInterval(-24 * 3600)
        var counts: [String: Int] = [:]
        for start in starts where start.time > from && start.time <= Self.now { counts[start.item, default: 0] += 1 }
        let statistics = PlayStatistics.compute(starts, now: Self.now, version: 1)
        #expect(!statistics.trending.isEmpty)
        #expect(statistics.trending == Self.ranked(counts))
    }

    @Test func theTrendingWindowSlidesAnHourLaterTheStartsOfThatHourCountAndThoseOf25HoursAgoNoMore() {
        let at = { (hoursAgo: Double, item: String) in
            PlayStatistics.Start(time: Self.now.addingTimeInterval(-hoursAgo * 3600), visitor: "v-\(item)-\(hoursAgo)", item: item)
        }
        let starts = [at(23.5, "old"), at(23.5, "old"), at(0.5, "new"), at(-0.5, "later"), at(-0.6, "later"), at(-0.7, "later")]
        #expect(PlayStatistics.compute(starts, now: Self.now, version: 1).trending == ["old", "new"])
        #expect(PlayStatistics.compute(starts, now: Self.now.addingTimeInterval(3600), version: 2).trending == ["later", "new"])
    }

    @Test(arguments: [4, 5] as [UInt64])
    func becauseYouWatchedTitlesStartedByTheVisitorsWhoStartedXInTheLast30DaysCountedPerVisitor(_ seed: UInt64) {
        let starts = Self.synthetic(seed: seed)
        let from = Self.now.addingTimeInterval(-30 * 86_400)
        var titles: [String: Set<String>] = [:]
        for start in starts where start.time > from && start.time <= Self.now { titles[start.visitor, default: []].insert(start.item) }
        let statistics = PlayStatistics.compute(starts, now: Self.now, version: 1)
        for item in Set(starts.map(\.item)) {
            var together: [String: Int] = [:]
            for seen in titles.values where seen.contains(item) {
                for other in seen where other != item { together[other, default: 0] += 1 }
            }
            #expect(statistics.related[item] ?? [] == Self.ranked(together), "related to \(item)")
        }
        // Never the title itself, never one the visitor finished.
        let first = statistics.related["i0"] ?? []
        #expect(statistics.becauseYouWatched("i0", excluding: Set(first.prefix(2))) == Array(first.dropFirst(2)))
    }
}

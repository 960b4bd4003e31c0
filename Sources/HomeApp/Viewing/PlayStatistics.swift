#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What every visitor's plays say: the titles most started in the last 24 hours (Trending now)
/// and, per title, the titles most often started by the visitors who started it in the last 30
/// days (Because you watched); kept as the starts arrive (`PlayCounts`), or computed at once. Ties go to the smaller
/// id, so every instance given the same events says the same.
public struct PlayStatistics: Sendable {
    public struct Start: Sendable {
        public let time: Date
        public let visitor: String
        public let item: String

        public init(time: Date, visitor: String, item: String) {
            self.time = time
            self.visitor = visitor
            self.item = item
        }
    }

    /// Titles kept per list.
    public static let limit = 10
    /// Distinct titles counted per visitor: one who starts everything says little about each.
    static let titlesPerVisitor = 100

    /// Changes when Trending now does: cached pages that show it are made again.
    let version: Int
    /// The most started titles of the trending window, most first.
    public let trending: [String]
    /// Title → the titles most often started by the same visitors, most first.
    public let related: [String: [String]]

    static let empty = PlayStatistics(version: 0, trending: [], related: [:])

    /// The statistics of `starts` (any order) as of `now`, counted directly: the reference the
    /// counts kept as starts arrive (`PlayCounts`) agree with. Trending now counts the starts of
    /// the last 1,440 minutes (`now`'s and the ones before), Because you watched each visitor's
    /// titles of the last 30 UTC days (`now`'s and the ones before; the first
    /// `titlesPerVisitor` of them); later starts are left out.
    static func compute(_ starts: some Sequence<Start>, now: Date, version: Int, limit: Int = limit) -> PlayStatistics {
        let lastMinute = PlayCounts.minute(now), lastDay = PlayCounts.day(now)
        var counts: [String: Int] = [:]
        var titles: [String: Set<String>] = [:]
        for start in starts.sorted(by: { $0.time < $1.time }) {
            let minute = PlayCounts.minute(start.time), day = PlayCounts.day(start.time)
            if minute <= lastMinute && minute > lastMinute - PlayCounts.trendingMinutes { counts[start.item, default: 0] += 1 }
            if day <= lastDay && day > lastDay - PlayCounts.coViewingDays {
                var seen = titles[start.visitor, default: []]
                if seen.count < titlesPerVisitor || seen.contains(start.item) {
                    seen.insert(start.item)
                    titles[start.visitor] = seen
                }
            }
        }
        var pairs: [String: [String: Int]] = [:]
        for seen in titles.values where seen.count > 1 {
            for first in seen {
                for second in seen where second != first { pairs[first, default: [:]][second, default: 0] += 1 }
            }
        }
        return PlayStatistics(version: version, trending: top(counts, limit), related: pairs.mapValues { top($0, limit) })
    }

    /// The `limit` keys with the largest counts, ties by key.
    static func top(_ counts: [String: Int], _ limit: Int) -> [String] {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit).map(\.key)
    }

    /// Because you watched `item`: the related titles but `item` itself, those in `excluded` (the
    /// ones the visitor finished) and those not `shown` (off the catalogue); when none is left
    /// (nobody else started `item` with anything else, or the visitor finished them all), Trending
    /// now under the same rule, so a visitor's latest title still leads somewhere.
    func becauseYouWatched(_ item: String, excluding excluded: Set<String>,
                           shown: (String) -> Bool = { _ in true }) -> [String] {
        let kept = { (title: String) in title != item && !excluded.contains(title) && shown(title) }
        let titles = (related[item] ?? []).filter(kept)
        return titles.isEmpty ? trending.filter(kept) : titles
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The counts behind `PlayStatistics`, kept as the starts arrive so that a recompute costs the
/// number of titles and pairs, not the number of events. Trending now: starts per title in minute
/// buckets, the last 1,440 minutes (this one and the ones before it) summed. Because you watched:
/// each visitor's titles started in the last 30 days (this UTC day and the 29 before), each with
/// the day it was last started (`PlayVisitors`, a flat table of `visitorCapacity` visitors, the
/// least recent leaving beyond it), and the number of visitors per pair of titles (`TitlePairs`);
/// when a day leaves the window, one sweep over the visitors drops each title last started before
/// the window, with its pairs. A sweep a day costs less than a list of every start kept for it
/// (16 bytes a start, some 130 MB at 100 million events). Titles are numbers here, names only in
/// what `statistics` returns; the first 65,536 numbered take part in Because you watched.
public struct PlayCounts: Sendable {
    static let trendingMinutes: Int64 = 1440
    static let coViewingDays: Int32 = 30

    /// Visitors held by default: a million and some, in about 55 MB.
    public static let visitorCapacity = 1 << 20

    private var names: [String] = []
    private var numbers: [String: Int32] = [:]
    private var minutes: [Int64: [Int32: Int32]] = [:]
    private var visitors: PlayVisitors
    private var pairs = TitlePairs()
    /// Minutes and days before these have left the windows: a start there is not counted.
    private var oldestMinute = Int64.min
    private var oldestDay = Int32.min
    /// Starts taken in.
    public private(set) var added = 0

    /// `chunkLimit`: chunks for the visitors' titles beyond their row's seven, three a chunk (by
    /// default enough for half the visitors to have three more each).
    public init(visitorCapacity: Int = Self.visitorCapacity, chunkLimit: Int? = nil) {
        visitors = PlayVisitors(capacity: visitorCapacity, chunkLimit: chunkLimit ?? max(1, visitorCapacity / 2))
    }

    static func minute(_ time: Date) -> Int64 { Int64((time.timeIntervalSince1970 / 60).rounded(.down)) }
    static func day(_ time: Date) -> Int32 { Int32((time.timeIntervalSince1970 / 86_400).rounded(.down)) }

    /// Visitors counted (those with a start in the co-viewing window).
    public var visitorCount: Int { visitors.count }

    /// Takes one start in.
    public mutating func add(_ start: PlayStatistics.Start) {
        let minute = Self.minute(start.time), day = Self.day(start.time)
        guard day >= oldestDay else { return }
        let title = number(start.item)
        added += 1
        if minute >= oldestMinute { minutes[minute, default: [:]][title, default: 0] += 1 }
        // The table's entries keep a title and a day in 16 bits each.
        guard title < 1 << 16, day >= 1, day < 1 << 16 else { return }
        visitors.add(ViewingHistory.key(start.visitor), title: UInt32(title), day: UInt32(day), pairs: &pairs)
    }

    /// Whether the visitor's titles are counted (for tests).
    func holds(_ visitor: String) -> Bool { visitors.contains(ViewingHistory.key(visitor)) }

    /// The visitor's titles counted, in the order first started (for tests).
    func titles(of visitor: String) -> [String] {
        visitors.titles(of: ViewingHistory.key(visitor)).map { names[Int($0)] }
    }

    /// Overflow chunks in use (for tests).
    var chunksUsed: Int { visitors.chunksUsed }

    /// Lets the minutes and days before `now`'s windows go, and what was counted in them.
    public mutating func advance(to now: Date) {
        let firstMinute = Self.minute(now) - Self.trendingMinutes + 1
        if firstMinute > oldestMinute {
            oldestMinute = firstMinute
            for minute in minutes.keys where minute < firstMinute { minutes[minute] = nil }
        }
        let firstDay = Self.day(now) - Self.coViewingDays + 1
        guard firstDay > oldestDay else { return }
        oldestDay = firstDay
        visitors.sweep(before: firstDay, pairs: &pairs)
    }

    /// The lists as of `now` (after `advance(to: now)`): ties go to the smaller id.
    public func statistics(now: Date, version: Int, limit: Int = PlayStatistics.limit) -> PlayStatistics {
        let last = Self.minute(now)
        var counts: [Int32: Int] = [:]
        for (minute, titles) in minutes where minute > last - Self.trendingMinutes && minute <= last {
            for (title, count) in titles { counts[title, default: 0] += Int(count) }
        }
        var byFirst: [Int32: [Int32: Int]] = [:]
        for (pair, count) in pairs.counts { byFirst[Int32(truncatingIfNeeded: pair >> 32), default: [:]][Int32(truncatingIfNeeded: pair)] = Int(count) }
        var related: [String: [String]] = [:]
        for (first, seconds) in byFirst { related[names[Int(first)]] = top(seconds, limit) }
        return PlayStatistics(version: version, trending: top(counts, limit), related: related)
    }

    private func top(_ counts: [Int32: Int], _ limit: Int) -> [String] {
        PlayStatistics.top(Dictionary(uniqueKeysWithValues: counts.map { (names[Int($0.key)], $0.value) }), limit)
    }

    private mutating func number(_ item: String) -> Int32 {
        if let known = numbers[item] { return known }
        let new = Int32(names.count)
        names.append(item)
        numbers[item] = new
        return new
    }
}

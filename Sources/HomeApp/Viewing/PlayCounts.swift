import Foundation

/// The counts behind `PlayStatistics`, kept as the starts arrive so that a recompute costs the
/// number of titles and pairs, not the number of events. Trending now: starts per title in minute
/// buckets, the last 1,440 minutes (this one and the ones before it) summed. Because you watched:
/// each visitor's titles started in the last 30 days (this UTC day and the 29 before), each with
/// the day it was last started, and the number of visitors per pair of titles; when a day leaves
/// the window, one sweep over the visitors drops each title last started before the window, with
/// its pairs. A sweep a day costs less than a list of every start kept for it (16 bytes a start,
/// some 130 MB at 100 million events). Titles are numbers here, names only in what `statistics` returns.
public struct PlayCounts: Sendable {
    static let trendingMinutes: Int64 = 1440
    static let coViewingDays: Int32 = 30

    private struct TitleDay: Sendable {
        var title: Int32
        var day: Int32
    }

    private var names: [String] = []
    private var numbers: [String: Int32] = [:]
    private var minutes: [Int64: [Int32: Int32]] = [:]
    private var visitors: [UInt64: [TitleDay]] = [:]
    /// Visitors per ordered pair of titles, `first << 32 | second`, both ways.
    private var pairs: [UInt64: Int32] = [:]
    /// Minutes and days before these have left the windows: a start there is not counted.
    private var oldestMinute = Int64.min
    private var oldestDay = Int32.min
    /// Starts taken in.
    public private(set) var added = 0

    public init() {}

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
        let visitor = ViewingHistory.key(start.visitor)
        // In place: a copy of the visitor's titles, changed and stored back, cost an allocation a start.
        if let held = visitors.index(forKey: visitor) {
            if let index = visitors.values[held].firstIndex(where: { $0.title == title }) {
                guard day > visitors.values[held][index].day else { return }
                visitors.values[held][index].day = day
            } else {
                guard visitors.values[held].count < PlayStatistics.titlesPerVisitor else { return }
                for other in visitors.values[held] { pair(title, other.title, by: 1) }
                visitors.values[held].append(TitleDay(title: title, day: day))
            }
        } else {
            visitors[visitor] = [TitleDay(title: title, day: day)]
        }
    }

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
        var emptied: [UInt64] = []
        for index in visitors.indices where visitors.values[index].contains(where: { $0.day < firstDay }) {
            var kept = visitors.values[index]
            for gone in visitors.values[index] where gone.day < firstDay {
                kept.removeAll { $0.title == gone.title }
                for other in kept { pair(gone.title, other.title, by: -1) }
            }
            visitors.values[index] = kept
            if kept.isEmpty { emptied.append(visitors.keys[index]) }
        }
        for visitor in emptied { visitors[visitor] = nil }
    }

    /// The lists as of `now` (after `advance(to: now)`): ties go to the smaller id.
    public func statistics(now: Date, version: Int, limit: Int = PlayStatistics.limit) -> PlayStatistics {
        let last = Self.minute(now)
        var counts: [Int32: Int] = [:]
        for (minute, titles) in minutes where minute > last - Self.trendingMinutes && minute <= last {
            for (title, count) in titles { counts[title, default: 0] += Int(count) }
        }
        var byFirst: [Int32: [Int32: Int]] = [:]
        for (pair, count) in pairs { byFirst[Int32(truncatingIfNeeded: pair >> 32), default: [:]][Int32(truncatingIfNeeded: pair)] = Int(count) }
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

    private mutating func pair(_ a: Int32, _ b: Int32, by change: Int32) {
        let a = UInt64(UInt32(bitPattern: a)), b = UInt64(UInt32(bitPattern: b))
        count(a << 32 | b, by: change)
        count(b << 32 | a, by: change)
    }

    private mutating func count(_ key: UInt64, by change: Int32) {
        let count = (pairs[key] ?? 0) + change
        pairs[key] = count > 0 ? count : nil
    }
}

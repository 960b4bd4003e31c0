import Foundation
import ReportFixtures
import Logging
import Testing
import TestSupport

@testable import Reporting

/// The visitor index leads to exactly the members that hold a visitor's events, so a visitor's
/// figures, events and ids by their start are those a full scan finds, and a missing or damaged
/// index is rebuilt (the damaged one set aside) without losing any of that.
@Suite struct VisitorIndexTests {
    /// Hex ids as the server makes them; some share their first 8 or 12 digits, and a few are not
    /// hex at all (short, or needing escapes in JSON).
    static func ids(seed: UInt64) -> [String] {
        var random = SplitMix64(state: seed)
        func hex(_ count: Int) -> String { String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &random)! }) }
        var ids = (0..<160).map { _ in hex(32) }
        ids[1] = String(ids[0].prefix(8)) + hex(24)
        ids[3] = String(ids[2].prefix(12)) + hex(20)
        ids[5] = String(ids[4].prefix(8)) + hex(24)
        ids[6] = String(ids[4].prefix(8)) + hex(24)
        return ids + ["ab", #"q"uote"#, "back\\slash", "caf\u{e9}"]
    }

    /// `days` days of visitors who come back every day, in sessions of a few events.
    static func days(_ days: Int, perDay: Int, ids: [String], seed: UInt64) -> [ReportEvent] {
        var random = SplitMix64(state: seed)
        var events: [ReportEvent] = []
        var open = Array(ids.prefix(8))
        for day in 0..<days {
            let start = dayStart + Int64(day) * ReportTimestamp.msPerDay
            for index in 0..<perDay {
                let ms = start + Int64(index) * (ReportTimestamp.msPerDay / Int64(perDay)) + Int64.random(in: 0..<1000, using: &random)
                let slot = Int.random(in: 0..<open.count, using: &random)
                if Int.random(in: 0..<6, using: &random) == 0 { open[slot] = ids.randomElement(using: &random)! }
                let names: [ReportEvent.Name] = [.launch, .longSelected, .shortSelected]
                events.append(event(names[index % 3], at: ms, layout: ["list", "grid"].randomElement(using: &random)!,
                                    item: "m\(Int.random(in: 0..<12, using: &random))",
                                    visitor: Int.random(in: 0..<12, using: &random) == 0 ? nil : open[slot],
                                    properties: index % 5 == 0 ? ["experiment.hero": index % 2 == 0 ? "a" : "b"] : [:]))
            }
        }
        return events
    }

    /// Three days of visitors written to `path` in compressed segments of 256 KiB.
    static func written(seed: UInt64, to path: String) throws -> (ids: [String], events: [ReportEvent]) {
        let ids = ids(seed: seed)
        let events = days(3, perDay: 6000, ids: ids, seed: seed + 1)
        try ReportLog.write(events, to: path, segmentBytes: 256 << 10, compressed: true)
        return (ids, events)
    }

    /// For every compressed segment, the members holding each visitor, found by inflating them all.
    static func truth(_ store: ReportStore, _ segment: SegmentEntry) throws -> [[UInt8]: Set<Int>] {
        let index = try #require(store.catalog.index(segment))
        let reader = try MemberReader(index: index, path: store.catalog.path(segment))
        var found: [[UInt8]: Set<Int>] = [:]
        for member in 0..<(index.members.count - 1) {
            let bytes = try reader.read(member)
            for line in bytes.split(separator: 10) {
                line.withUnsafeBytes { raw in
                    if let value = MemberFilter.visitorValue(raw) { found[Array(value), default: []].insert(member) }
                }
            }
        }
        return found
    }

    /// Summaries, event lists and ids by their start agree with the events themselves.
    func check(_ store: ReportStore, _ events: [ReportEvent], ids: [String], _ label: String) {
        let span = Int64(events.count) > 0 ? ReportTimestamp.milliseconds(events.last!.timestamp) - dayStart : 0
        let ranges = [ReportRange(),
                      ReportRange(from: ReportTimestamp.date(milliseconds: dayStart + span / 3 + 12_345),
                                  to: ReportTimestamp.date(milliseconds: dayStart + span * 2 / 3 + 777))]
        for range in ranges {
            for visitor in [ids[0], ids[1], ids[3], ids[9], ids[40], "ab", #"q"uote"#, "back\\slash", "caf\u{e9}", "nobody"] {
                let filter = ReportFilter(visitor: visitor)
                let mine = events.filter { $0.visitor == visitor && range.contains(ms: ReportTimestamp.milliseconds($0.timestamp)) }
                let summary = store.summary(range, filter: filter)
                #expect(summary.total == mine.count, "\(label): \(visitor)")
                #expect(summary.byEvent == ReportStoreTests.naive(events, range, filter).1, "\(label): \(visitor)")
                #expect(summary.visitors == (mine.isEmpty ? 0 : 1))
                let page = store.events(matching: filter, range: range, limit: 1000)
                #expect(page.events.map(\.timestamp) == mine.reversed().map(\.timestamp), "\(label): \(visitor), newest first")
            }
            // Ids by their start: the first 8 digits (two ids, or three), 12, 10, and none.
            let starts: [(String, Int)] = [(ids[0], 8), (ids[2], 12), (ids[2], 8), (ids[4], 8), (ids[9], 10), (ids[9], 31), ("0000ffff", 8)]
            for prefix in starts.map({ String($0.0.prefix($0.1)) }) {
                let expected = Set(events.compactMap { event -> String? in
                    guard let visitor = event.visitor, visitor.hasPrefix(prefix),
                          range.contains(ms: ReportTimestamp.milliseconds(event.timestamp)) else { return nil }
                    return visitor
                }).sorted()
                #expect(store.visitors(startingWith: prefix, in: range, limit: 5) == Array(expected.prefix(5)), "\(label): \(prefix)")
            }
        }
    }

    /// The store in `path` opened again over a catalogue that keeps `keptIndexes` gzip indexes,
    /// and its compressed segments (at least six).
    static func reopened(_ path: String, keptIndexes: Int) throws -> (SegmentCatalog, ReportStore, [SegmentEntry]) {
        let opened = try ReportStore(directory: path)
        let catalog = SegmentCatalog(directory: opened.directory, segments: opened.catalog.segments, keptIndexes: keptIndexes)
        let closed = catalog.segments.filter(\.compressed)
        #expect(closed.count >= 6)
        return (catalog, ReportStore(catalog: catalog, logger: Logger(label: "test")), closed)
    }

    @Test func aSegmentWhoseGzipIndexIsNotKeptReadsOnlyTheEntriesOfTheVisitorsMembersAndAnswersTheSame() throws {
        let directory = try TemporaryDirectory("visitor-index")
        defer { directory.remove() }
        let (ids, events) = try Self.written(seed: 31, to: directory.path("reports"))
        let (catalog, store, closed) = try Self.reopened(directory.path("reports"), keptIndexes: 0)
        for segment in closed {
            let whole = try #require(catalog.index(segment), "its checksum checked, the index not kept")
            for id in ids.prefix(24) {
                let (partial, members) = try #require(store.indexAndMembers(holding: id, segment))
                #expect(members == store.members(holding: id, segment, index: whole), "\(id) in \(segment.stamp)")
                // A segment without the visitor reads no gzip index at all.
                #expect(partial.members.count == (members.isEmpty ? 0 : whole.members.count))
                for member in members {
                    #expect(partial.members[member] == whole.members[member] && partial.members[member + 1] == whole.members[member + 1])
                }
            }
        }
        check(store, events, ids: ids, "not kept")
    }

    /// An id's start looked up over segments whose gzip indexes are checked but not kept reads
    /// only the entries it needs: no index is read whole (which would be kept).
    @Test func anIdsStartIsLookedUpWithoutReadingAGzipIndexWhole() throws {
        let directory = try TemporaryDirectory("visitor-index")
        defer { directory.remove() }
        let (ids, _) = try Self.written(seed: 37, to: directory.path("reports"))
        let (catalog, store, closed) = try Self.reopened(directory.path("reports"), keptIndexes: 1)
        for segment in closed { _ = try #require(catalog.index(segment), "its checksum checked") }
        let kept = catalog.keptIndexStamps
        #expect(kept == [closed.last!.stamp])
        for id in ids.prefix(6) {
            #expect(store.visitors(startingWith: String(id.prefix(8)), limit: 5).contains(id))
        }
        #expect(catalog.keptIndexStamps == kept)
    }

    @Test func theIndexLeadsToExactlyTheMembersOfEachVisitorAndAFullScanAgrees() throws {
        let directory = try TemporaryDirectory("visitor-index")
        defer { directory.remove() }
        let (ids, events) = try Self.written(seed: 21, to: directory.path("reports"))
        let store = try ReportStore(directory: directory.path("reports"))
        let closed = store.catalog.segments.filter(\.compressed)
        #expect(closed.count >= 6, "\(store.catalog.segments.count) segments")
        #expect(closed.allSatisfy { $0.visitorIndexed })
        // Each visitor's members are exactly those holding one of their lines: none more.
        for segment in closed {
            let truth = try Self.truth(store, segment)
            for id in ids + ["nobody"] {
                let expected = truth[LineNeedles.escaped(id)].map { $0.sorted() } ?? []
                #expect(store.members(holding: id, segment) == expected, "\(id) in \(segment.stamp)")
            }
            let start = String(ids[4].prefix(8))
            let starting = truth.filter { $0.key.starts(with: Array(start.utf8)) }.values.reduce(into: Set<Int>()) { $0.formUnion($1) }
            #expect(store.members(holding: start, prefix: true, segment) == starting.sorted())
        }
        check(store, events, ids: ids, "indexed")
    }

    @Test func aMissingOrDamagedIndexIsSetAsideRebuiltAndAnswersTheSame() async throws {
        let directory = try TemporaryDirectory("visitor-index-damage")
        defer { directory.remove() }
        let path = directory.path("reports")
        let ids = Self.ids(seed: 31)
        let events = Self.days(2, perDay: 5000, ids: ids, seed: 32)
        var configuration = ReportLog.Configuration(directory: path)
        configuration.segmentBytes = 256 << 10
        try ReportLog.write(events, to: path, segmentBytes: configuration.segmentBytes, compressed: true)
        let names = listing(path).filter { $0.hasSuffix(SegmentName.visitorIndex) }
        try #require(names.count >= 4)
        let original = try names.map { try Data(contentsOf: URL(fileURLWithPath: path + "/" + $0)) }
        // One missing, one with bytes flipped in the middle (its size still right), one cut short.
        unlink(path + "/" + names[0])
        var flipped = [UInt8](original[1])
        for index in (flipped.count / 2)..<(flipped.count / 2 + 16) { flipped[index] ^= 0x5A }
        try Data(flipped).write(to: URL(fileURLWithPath: path + "/" + names[1]))
        #expect(truncate(path + "/" + names[2], off_t(original[2].count / 2)) == 0)

        // `reports check` names the two damaged ones (a missing index is only slower).
        let checked = try ReportCheck.run(directory: path).problems.filter { $0.reason.hasPrefix("visitor index") }
        #expect(checked.count == 2, "\(checked)")
        #expect(checked.contains { $0.reason.contains("checksum") })
        // A reader uses none of the three, reads those segments whole, and answers the same.
        let reader = try ReportStore(directory: path)
        let unindexed = reader.catalog.segments.filter { $0.compressed && !$0.visitorIndexed }.map(\.stamp)
        #expect(Set(unindexed) == Set(names.prefix(3).map { String($0.dropFirst(SegmentName.prefix.count).dropLast(SegmentName.visitorIndex.count)) }))
        check(reader, events, ids: ids, "without three indexes")

        // The log opens, sets the damaged two aside with why, and makes all three again, the same.
        let reopened = try ReportLog(configuration: configuration)
        defer { reopened.shutdown() }
        try await eventually(timeout: 30) { reopened.store.catalog.segments.filter(\.compressed).allSatisfy { $0.visitorIndexed } }
        let damaged = listing(DamagedSegments.folder(path))
        #expect(damaged.contains(names[1]) && damaged.contains(names[1] + ".reason"))
        #expect(damaged.contains(names[2]) && damaged.contains(names[2] + ".reason"))
        #expect(!damaged.contains(names[0]))
        let reason = try String(contentsOfFile: DamagedSegments.folder(path) + "/" + names[1] + ".reason", encoding: .utf8)
        #expect(reason.contains("checksum"))
        #expect(reopened.store.setAsideSegments.isEmpty, "an index is not a segment: no events are left out")
        for (name, bytes) in zip(names, original) {
            let now = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
            #expect(now == bytes, "\(name) made again as it was")
        }
        check(reopened.store, events, ids: ids, "rebuilt")
    }
}

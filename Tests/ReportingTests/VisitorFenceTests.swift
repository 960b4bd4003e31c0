import Foundation
import ReportFixtures
import Testing
import TestSupport

@testable import Reporting

/// A visitor index's fence leads a lookup to the block of rows it needs: the members and ids a
/// search over the whole file finds, in two reads (the block, the member list) instead of one per
/// probe; a file rewritten since the fence was taken is read with every check, as without one.
struct VisitorFenceTests {
    static let members = 300
    static let bytes: Int64 = 123_456

    /// An index of ids over 300 members, written to `path`: 400 of the ids share their first 8
    /// characters (one key over several blocks of rows), and the rest are random.
    static func write(seed: UInt64, to path: String) throws -> (ids: [String], truth: [String: Set<Int>]) {
        var random = SplitMix64(state: seed)
        func hex(_ count: Int) -> String { String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &random)! }) }
        let shared = hex(8)
        let ids = (0..<5600).map { _ in hex(32) } + (0..<400).map { _ in shared + hex(24) }
        var index = VisitorIndex()
        var truth: [String: Set<Int>] = [:]
        for member in 0..<members {
            var lines = ""
            for _ in 0..<60 {
                let id = ids.randomElement(using: &random)!
                truth[id, default: []].insert(member)
                lines += #"{"event":"launch","visitor":"\#(id)"}"# + "\n"
            }
            Array(lines.utf8).withUnsafeBytes { index.add(member: member, lines: $0, count: $0.count) }
        }
        #expect(RollupFile.writeAtomically(index.encode(members: members, bytes: bytes), to: path, sync: false))
        return (ids, truth)
    }

    static func fence(_ path: String) throws -> VisitorFence {
        guard case .whole(let fence) = VisitorIndex.check(path, members: members, bytes: bytes) else {
            Issue.record("the index is not whole")
            throw CancellationError()
        }
        return fence
    }

    static func members(_ path: String, _ id: String, prefix: Bool = false, fence: VisitorFence?) -> [Int]? {
        VisitorIndex.members(path, escaped: LineNeedles.escaped(id), prefix: prefix, members: members, bytes: bytes, fence: fence)
    }

    @Test func aLookupThroughTheFenceFindsWhatASearchOfTheWholeFileFinds() throws {
        let directory = try TemporaryDirectory("visitor-fence")
        defer { directory.remove() }
        let path = directory.path("index.vix")
        let (ids, truth) = try Self.write(seed: 5, to: path)
        let fence = try Self.fence(path)
        #expect(fence.rowCount > 20 * VisitorFence.step, "\(fence.rowCount) rows: many blocks")
        for id in ids + ["0", "00000000", "ffffffffffff", "nobody"] {
            let expected = truth[id].map { $0.sorted() } ?? []
            #expect(Self.members(path, id, fence: fence) == expected, "\(id)")
            #expect(Self.members(path, id, fence: nil) == expected, "\(id)")
        }
        // The 400 ids' shared start (one key over several blocks) among them.
        let starts = Set(ids.map { String($0.prefix(8)) }).sorted().prefix(400) + [String(ids.last!.prefix(8)), "00000000", "ffffffff"]
        for start in starts {
            #expect(Self.members(path, start, prefix: true, fence: fence) == Self.members(path, start, prefix: true, fence: nil), "\(start)")
            let escaped = LineNeedles.escaped(start)
            let through = VisitorIndex.ids(path, startingWith: escaped, members: Self.members, bytes: Self.bytes, fence: fence)
            let whole = VisitorIndex.ids(path, startingWith: escaped, members: Self.members, bytes: Self.bytes, fence: nil)
            #expect(through.map { $0.map(\.key) } == whole.map { $0.map(\.key) } && through.map { $0.map(\.member) } == whole.map { $0.map(\.member) })
            #expect(through?.count == Set(ids.filter { $0.hasPrefix(start) && truth[$0] != nil }).count, "\(start)")
        }
        #expect(VisitorIndex.ids(path, startingWith: LineNeedles.escaped(String(ids.last!.prefix(8))), members: Self.members,
                                 bytes: Self.bytes, fence: fence)!.count > 2 * VisitorFence.step)
    }

    @Test func aLookupThroughTheFenceReadsTheFileTwice() throws {
        let directory = try TemporaryDirectory("visitor-fence")
        defer { directory.remove() }
        let path = directory.path("index.vix")
        let (ids, truth) = try Self.write(seed: 6, to: path)
        let fence = try Self.fence(path)
        for id in ids.filter({ truth[$0] != nil }).prefix(50) {
            let (key, hash) = LineNeedles.escaped(id).withUnsafeBytes { VisitorIndex.keyAndHash($0) }
            let fenced = try #require(FileWindow(path: path, window: VisitorFence.window))
            #expect(VisitorIndex.Contents(fenced, fence: fence).members(keys: key...key, hash: hash) == truth[id]!.sorted())
            #expect(fenced.reads <= 2, "\(fenced.reads) reads for \(id)")
            let searched = try #require(FileWindow(path: path))
            #expect(VisitorIndex.Contents(searched).members(keys: key...key, hash: hash) == truth[id]!.sorted())
            #expect(searched.reads >= 6, "a search of the whole file: a read per probe")
        }
    }

    @Test func aFenceOfAnotherVersionOfTheFileIsNotUsed() throws {
        let directory = try TemporaryDirectory("visitor-fence")
        defer { directory.remove() }
        let path = directory.path("index.vix")
        _ = try Self.write(seed: 7, to: path)
        let stale = try Self.fence(path)
        let (ids, truth) = try Self.write(seed: 8, to: path)
        #expect(try Self.fence(path).file != stale.file)
        for id in ids.prefix(300) {
            #expect(Self.members(path, id, fence: stale) == truth[id].map { $0.sorted() } ?? [], "\(id)")
        }
        // Cut short since: the lookup says it cannot tell (every member is then read), never reads past the end.
        #expect(truncate(path, off_t(VisitorIndex.headerBytes + 40)) == 0)
        #expect(Self.members(path, ids[0], fence: stale) == nil)
    }

    /// A segment of a visitor index with its fence names a visitor's members before any gzip
    /// index is read: one holding none of them opens none (here, none is left to open).
    @Test func aSegmentHoldingNoneOfAVisitorsEventsReadsNoGzipIndex() throws {
        let directory = try TemporaryDirectory("visitor-fence")
        defer { directory.remove() }
        let path = directory.path("reports")
        let (ids, _) = try VisitorIndexTests.written(seed: 41, to: path)
        let (_, store, closed) = try VisitorIndexTests.reopened(path, keptIndexes: 0)
        #expect(closed.allSatisfy { $0.visitorFence != nil })
        let holding = closed.map { store.members(holding: ids[0], $0) ?? [] }
        for segment in closed { unlink(store.catalog.indexPath(segment.stamp)) }
        for (segment, members) in zip(closed, holding) {
            let found = store.indexAndMembers(holding: ids[0], segment)
            if members.isEmpty {
                #expect(found?.members == [], "\(segment.stamp)")
            } else {
                #expect(found == nil, "its gzip index is gone: every line is read")
            }
        }
        #expect(holding.contains { $0.isEmpty } && holding.contains { !$0.isEmpty })
    }

    /// The writer's own segments get their fence when compressed, and segments found at open theirs.
    @Test func aSegmentCompressedByTheLogHasTheFenceOfItsIndexFile() throws {
        let directory = try TemporaryDirectory("visitor-fence")
        defer { directory.remove() }
        let path = directory.path("reports")
        let events = VisitorIndexTests.days(1, perDay: 6000, ids: VisitorIndexTests.ids(seed: 43), seed: 44)
        var configuration = ReportLog.Configuration(directory: path)
        configuration.segmentBytes = 256 << 10
        let log = try ReportLog(configuration: configuration)
        defer { log.shutdown() }
        for event in events { log.record(event) }
        try eventually("segments compressed", timeout: 60) {
            log.store.catalog.segments.filter { $0.compressed && $0.visitorIndexed }.count >= 3
        }
        for segment in log.store.catalog.segments where segment.compressed && segment.visitorIndexed {
            let file = try #require(FileWindow(path: log.store.catalog.visitorIndexPath(segment.stamp)))
            #expect(segment.visitorFence?.file == file.stamp)
            #expect(segment.visitorFence?.memberCount == log.store.catalog.index(segment).map { $0.members.count - 1 })
        }
    }
}

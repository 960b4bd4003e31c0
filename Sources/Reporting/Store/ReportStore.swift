import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a report directory: totals from the rollups, events newest first within a work budget,
/// raw lines from a time on. Thread-safe; calls may block on the disk, so keep them off the HTTP
/// server's threads. A log's own store (`ReportLog.store`) sees its writes as they happen.
public final class ReportStore: Sendable {
    let catalog: SegmentCatalog
    let logger: Logger
    /// Malformed lines already logged, by segment and offset, so each is logged once.
    let reported = Mutex(Set<String>())
    /// Segments set aside as damaged: in `damaged/` at open, or found since.
    let setAside: Mutex<[SetAsideSegment]>
    /// A segment found damaged while reading is moved into `damaged/` (the log's own store);
    /// a reader beside a running writer only leaves it out.
    let movesDamaged: Bool

    init(catalog: SegmentCatalog, logger: Logger, setAside: [SetAsideSegment] = [], movesDamaged: Bool = false) {
        self.catalog = catalog
        self.logger = logger
        self.setAside = Mutex(setAside)
        self.movesDamaged = movesDamaged
    }

    /// Opens a directory to read, changing nothing in it: rollups that are missing or behind are
    /// rebuilt in memory. For a directory no log in this process writes (commands, benches).
    public convenience init(directory: String, logger: Logger = Logger(label: "report-store")) throws {
        let interner = Interner()
        let opened = try SegmentDirectory.open(directory, interner: interner, repair: false, logger: logger)
        self.init(catalog: SegmentCatalog(directory: directory, interner: interner, segments: opened.segments), logger: logger,
                  setAside: DamagedSegments.list(directory) + opened.damaged)
    }

    /// The directory read.
    public var directory: String { catalog.directory }

    /// Events in the store (rollup line counts).
    public var eventCount: Int { catalog.segments.reduce(0) { $0 + $1.rollup.lines } }

    /// Segment files, oldest first, as (file name, bytes on disk, events).
    public var segmentFiles: [(name: String, bytes: Int64, events: Int)] {
        catalog.segments.map { (SegmentName.dataFile($0.stamp, compressed: $0.compressed), $0.fileBytes, $0.rollup.lines) }
    }

    /// The segments whose events may fall in `range`, oldest first.
    func segments(in range: ReportRange) -> [SegmentEntry] {
        let fromMs = range.fromMinute.map { $0 * 60_000 }
        let toMs = range.toMinute.map { $0 * 60_000 }
        return catalog.segments.filter { entry in
            guard !entry.rollup.isEmpty else { return false }
            if let fromMs, entry.rollup.lastMs < fromMs { return false }
            if let toMs, entry.rollup.firstMs >= toMs { return false }
            return true
        }
    }

    /// Opens a segment to read forward; follows it if it was compressed meanwhile. Nil if it is gone.
    func reader(_ entry: SegmentEntry, from: Int64 = 0, end: Int64 = .max) throws -> SegmentLineReader? {
        if let reader = try SegmentLineReader(path: catalog.path(entry), compressed: entry.compressed, from: from, end: end, index: catalog.index(entry)) {
            return reader
        }
        guard !entry.compressed, let moved = catalog.entry(entry.stamp), moved.compressed else { return nil }
        return try SegmentLineReader(path: catalog.path(moved), compressed: true, from: from, end: end, index: catalog.index(moved))
    }

    /// False only when the segment's visitor filter says it holds no event of `visitor`. An
    /// indexed segment is not asked: its index says which members hold them, none or some.
    func mayHold(visitor: String?, _ segment: SegmentEntry) -> Bool {
        guard let visitor, !segment.active, !segment.visitorIndexed else { return true }
        return VisitorFilter.mayContain(path: catalog.visitorsPath(segment.stamp), hash: StableHash.hash(visitor)) ?? true
    }

    /// Decodes a line; nil (logged once) if malformed.
    func decode(_ line: ScannedLine, segment: String) -> ReportEvent? {
        var failure: String
        if let bytes = line.bytes {
            do {
                return try bytes.withUnsafeBufferPointer { try ReportEvent(parsing: $0) }
            } catch {
                failure = "\(error)"
            }
        } else {
            failure = "line longer than \(maxLineBytes) bytes"
        }
        let isNew = reported.withLock { $0.count < 100_000 && $0.insert("\(segment):\(line.offset)").inserted }
        if isNew {
            logger.warning(
                "skipping malformed report line", metadata: ["segment": "\(segment)", "offset": "\(line.offset)", "reason": "\(failure)"])
        }
        return nil
    }
}

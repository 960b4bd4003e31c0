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

/// The store's background thread: persists rollups, compresses closed segments and applies
/// retention, so none of it delays the writer.
final class Maintenance: Sendable {
    enum Job: Sendable {
        case persist(String, Rollup, closed: Bool)
        case visitors(String, VisitorFilter)
        case compress(String)
        /// Checks a compressed segment's visitor index; writes it anew when missing or damaged.
        case indexVisitors(String)
        case retention
    }

    struct Retention: Sendable {
        /// Delete closed segments whose newest event is older than this many seconds.
        var age: TimeInterval?
        /// Delete the oldest closed segments while all of them take more than this.
        var maxBytes: Int64?
        var now: @Sendable () -> Date = { Date() }
        /// False for a segment not yet shipped to the report database: age keeps it.
        var mayDelete: (@Sendable (String) -> Bool)?
    }

    let catalog: SegmentCatalog
    let sync: Bool
    let compress: Bool
    let retention: Retention
    let logger: Logger
    private let jobs = Mutex<(queue: [Job], stopping: Bool)>(([], false))
    private let wake = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)

    init(catalog: SegmentCatalog, sync: Bool, compress: Bool, retention: Retention, logger: Logger) throws {
        self.catalog = catalog
        self.sync = sync
        self.compress = compress
        self.retention = retention
        self.logger = logger
        let worker = try WorkerThread(name: "report-upkeep") { [self] in run() }
        thread.withLock { $0 = worker }
    }

    func submit(_ job: Job) {
        jobs.withLock { $0.queue.append(job) }
        wake.ring()
    }

    /// A segment was closed: its final rollup, then compression, then retention.
    func closed(_ stamp: String, rollup: Rollup, visitors: VisitorFilter) {
        submit(.persist(stamp, rollup, closed: true))
        submit(.visitors(stamp, visitors))
        if compress { submit(.compress(stamp)) }
        submit(.retention)
    }

    /// Finishes the rollups and retention queued (compression left for the next start unless `drain`) and stops the thread.
    func shutdown(drain: Bool = false) {
        jobs.withLock { state in
            state.stopping = true
            if !drain { state.queue.removeAll { if case .compress = $0 { true } else { false } } }
        }
        wake.ring()
        thread.withLock { $0 }?.join()
    }

    private func run() {
        while true {
            wake.wait()
            while true {
                let (job, stopping) = jobs.withLock { state -> (Job?, Bool) in
                    return (state.queue.isEmpty ? nil : state.queue.removeFirst(), state.stopping)
                }
                guard let job else {
                    if stopping { return }
                    break
                }
                perform(job)
            }
        }
    }

    func perform(_ job: Job) {
        switch job {
        case .persist(let stamp, let rollup, let closed):
            // A segment deleted meanwhile by retention keeps no rollup.
            guard catalog.entry(stamp) != nil else { return }
            let bytes = RollupFile.encode(rollup, closed: closed, names: catalog.interner.names)
            if !RollupFile.writeAtomically(bytes, to: catalog.rollupPath(stamp), sync: sync) {
                logger.error("cannot write a segment's rollup; it will be rebuilt at the next start", metadata: ["segment": "\(stamp)"])
            } else if closed {
                // On disk now: the full-grain counts can leave memory.
                catalog.update(stamp) { $0.freeze() }
            }
        case .visitors(let stamp, let filter):
            guard catalog.entry(stamp) != nil else { return }
            _ = RollupFile.writeAtomically(filter.encode(), to: catalog.visitorsPath(stamp), sync: sync)
        case .compress(let stamp):
            compressSegment(stamp)
        case .indexVisitors(let stamp):
            indexVisitors(stamp)
        case .retention:
            applyRetention()
        }
    }

    func compressSegment(_ stamp: String) {
        guard let entry = catalog.entry(stamp), !entry.active, !entry.compressed else { return }
        let plain = catalog.path(stamp: stamp, compressed: false)
        let target = catalog.path(stamp: stamp, compressed: true)
        let temporary = target + SegmentName.temporary
        // The index first: a .gz in place always has its index (or, after a crash, none: read whole).
        // The visitor index likewise; without it a visitor's query reads every member.
        guard let (index, visitors) = SegmentGzip.compress(plain, to: temporary),
            case let visitorIndex = visitors.encode(members: index.members.count - 1, bytes: index.members.last?.uncompressed ?? 0),
            RollupFile.writeAtomically(index.encode(), to: catalog.indexPath(stamp), sync: sync),
            RollupFile.writeAtomically(visitorIndex, to: catalog.visitorIndexPath(stamp), sync: sync),
            rename(temporary, target) == 0
        else {
            unlink(temporary)
            logger.error("cannot compress a closed report segment; it stays plain", metadata: ["segment": "\(stamp)"])
            return
        }
        var kept = false
        let size = SegmentDirectory.fileSize(target) ?? 0
        let fence = VisitorIndex.fence(catalog.visitorIndexPath(stamp), written: visitorIndex)
        catalog.update(stamp) { entry in
            entry.compressed = true
            entry.fileBytes = size
            if index.members.last?.uncompressed == entry.rollup.bytes {
                entry.indexed = true
                entry.visitorFence = fence
            }
            kept = true
        }
        if kept {
            unlink(plain)
        } else {
            unlink(target)
            unlink(catalog.indexPath(stamp))
            unlink(catalog.visitorIndexPath(stamp))
        }
        unlink(catalog.membersPath(stamp))  // a filter of an older version's, superseded by the index
    }

    func applyRetention() {
        guard retention.age != nil || retention.maxBytes != nil else { return }
        let nowMs = ReportTimestamp.milliseconds(retention.now())
        let segments = catalog.segments
        var total = segments.reduce(Int64(0)) { $0 + $1.fileBytes }
        for segment in segments where !segment.active {
            var reason: String?
            if let age = retention.age, segment.rollup.lastMs < nowMs - Int64(age * 1000) {
                reason = "older than --report-retention"
            } else if let maxBytes = retention.maxBytes, total > maxBytes {
                reason = "over --report-max-bytes"
            }
            guard let reason else { break }
            let shipped = retention.mayDelete?(SegmentName.dataFile(segment.stamp, compressed: false)) ?? true
            if !shipped {
                // Later segments are not shipped either: age waits for the shipper; the cap cannot.
                guard retention.maxBytes.map({ total > $0 }) == true else { break }
                catalog.state.withLock { $0.unshippedDeleted += segment.rollup.lines }
                logger.warning(
                    "the size cap deleted a report segment not yet in the report database",
                    metadata: ["segment": "\(SegmentName.dataFile(segment.stamp, compressed: segment.compressed))",
                               "events": "\(segment.rollup.lines)"])
            }
            catalog.remove(segment.stamp)
            unlink(catalog.path(stamp: segment.stamp, compressed: segment.compressed))
            unlink(catalog.path(stamp: segment.stamp, compressed: !segment.compressed))
            unlink(catalog.rollupPath(segment.stamp))
            unlink(catalog.indexPath(segment.stamp))
            unlink(catalog.visitorsPath(segment.stamp))
            unlink(catalog.membersPath(segment.stamp))
            unlink(catalog.visitorIndexPath(segment.stamp))
            total -= segment.fileBytes
            logger.notice(
                "deleted a report segment", metadata: ["segment": "\(SegmentName.dataFile(segment.stamp, compressed: segment.compressed))",
                                                       "reason": "\(reason)", "events": "\(segment.rollup.lines)",
                                                       "bytes": "\(segment.fileBytes)"])
        }
    }
}

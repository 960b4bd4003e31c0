import Basics
import CDeflate
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a report directory: lists its segments, repairs what a crash left (temporary files, a
/// torn last line, a segment both compressed and not), and loads each rollup, rescanning the
/// segments whose rollup is missing, torn or behind. A segment found damaged is left out (and,
/// when repairing, moved into `damaged/`): never a reason not to open.
enum SegmentDirectory {
    struct Opened {
        var segments: [SegmentEntry]
        /// Closed segments still plain, oldest first, for the compressor.
        var uncompressed: [String]
        /// Segments left out because they cannot be read (moved into `damaged/` when repairing).
        var damaged: [SetAsideSegment] = []
        /// Compressed segments whose visitor index is to be checked whole, or made (`Maintenance`).
        var toIndex: [String] = []
    }

    /// With `repair`, the directory is created if missing, repaired and the rebuilt rollups are
    /// written; without it nothing on disk changes (for a reader beside a running writer).
    static func open(_ directory: String, interner: Interner, repair: Bool, sync: Bool = false, logger: Logger) throws -> Opened {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw ReportStoreError.singleFile(directory) }
        } else if repair {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw ReportStoreError("cannot create the report directory \(directory): \(ErrorText.describe(error))")
            }
        } else {
            throw ReportStoreError("no report directory at \(directory)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ReportStoreError("cannot list the report directory \(directory): \(ErrorText.describe(error))")
        }
        var plain = Set<String>()
        var compressed = Set<String>()
        for name in names {
            if name.hasPrefix(SegmentName.prefix) && name.hasSuffix(SegmentName.temporary) {
                // A compression or rollup write cut short: its source is still there.
                if repair {
                    unlink(directory + "/" + name)
                    logger.notice("removed an unfinished temporary file", metadata: ["file": "\(name)"])
                }
                continue
            }
            guard let (stamp, isCompressed) = SegmentName.stamp(ofDataFile: name) else { continue }
            if isCompressed { compressed.insert(stamp) } else { plain.insert(stamp) }
        }
        for stamp in plain.intersection(compressed) {
            // The .gz is renamed into place only once complete: the plain copy is the leftover.
            plain.remove(stamp)
            if repair { unlink(directory + "/" + SegmentName.dataFile(stamp, compressed: false)) }
        }
        let stamps = plain.union(compressed).sorted()
        var opened = Opened(segments: [], uncompressed: [])
        for (index, stamp) in stamps.enumerated() {
            let isCompressed = compressed.contains(stamp) && !plain.contains(stamp)
            let path = directory + "/" + SegmentName.dataFile(stamp, compressed: isCompressed)
            var size = fileSize(path) ?? 0
            if repair, !isCompressed, index == stamps.count - 1 {
                size = try truncateTornTail(path, size: size, logger: logger)
            }
            let rollupPath = directory + "/" + SegmentName.rollupFile(stamp)
            let stored = (try? Data(contentsOf: URL(fileURLWithPath: rollupPath))).flatMap {
                RollupFile.decode([UInt8]($0), interner: interner)
            }
            var rollup: Rollup
            var onDisk = true
            if let stored, stored.closed, isCompressed || stored.rollup.bytes == size {
                rollup = stored.rollup
            } else {
                // Missing, torn, or saved while the segment was being written: count it again,
                // its visitor filter with it (the filter is only saved when a segment closes).
                logger.notice(
                    "rebuilding a segment's rollup from its events",
                    metadata: ["segment": "\(SegmentName.dataFile(stamp, compressed: isCompressed))",
                               "reason": "\(stored == nil ? "missing or torn" : "behind the segment")"])
                var visitors = VisitorFilter()
                do {
                    rollup = try scan(path, compressed: isCompressed, interner: interner, visitors: &visitors)
                } catch let error as ScanError where error.damage != nil {
                    opened.damaged.append(setAside(directory, stamp: stamp, compressed: isCompressed, reason: error.reason,
                                                   events: stored?.rollup.lines, repair: repair, logger: logger))
                    continue
                }
                onDisk = repair
                    && RollupFile.writeAtomically(RollupFile.encode(rollup, closed: true, names: interner.names), to: rollupPath, sync: sync)
                if repair {
                    _ = RollupFile.writeAtomically(visitors.encode(), to: directory + "/" + SegmentName.visitorsFile(stamp), sync: sync)
                }
            }
            var entry = SegmentEntry(
                stamp: stamp, startMs: SegmentName.milliseconds(stamp: stamp) ?? 0, compressed: isCompressed, active: false,
                rollup: rollup, fileBytes: fileSize(path) ?? 0)
            if isCompressed, let index = GzipIndex.load(directory + "/" + SegmentName.indexFile(stamp)),
                let last = index.members.last, last.uncompressed == rollup.bytes
            {
                // A size other than the index's end: cut short (or grown) since it was written.
                guard last.compressed == entry.fileBytes else {
                    let reason = "truncated: \(entry.fileBytes) bytes, its gzip index ends at \(last.compressed)"
                    opened.damaged.append(setAside(directory, stamp: stamp, compressed: true, reason: reason,
                                                   events: rollup.lines, repair: repair, logger: logger))
                    continue
                }
                entry.indexed = true
                // Checked whole (a few MiB a segment, read once): a damaged index would hide events.
                let indexFile = SegmentName.visitorIndexFile(stamp)
                switch VisitorIndex.check(directory + "/" + indexFile, members: index.members.count - 1, bytes: rollup.bytes) {
                case .whole(let fence):
                    entry.visitorFence = fence
                case .missing:
                    opened.toIndex.append(stamp)
                case .damaged(let problem):
                    setAside(directory, companion: indexFile, reason: problem, repair: repair, logger: logger)
                    opened.toIndex.append(stamp)
                }
            }
            // Without its rollup on disk (rebuilt by a reader), it keeps the counts at full grain.
            if onDisk { entry.freeze() }
            opened.segments.append(entry)
            if !isCompressed { opened.uncompressed.append(stamp) }
        }
        #if canImport(Glibc)
            // Each rollup was decoded at full grain and then folded: give the freed heap back, or
            // the process keeps the largest segment's decoding as resident memory for good.
            malloc_trim(0)
        #endif
        if repair {
            // Rollups whose segment is gone (deleted by hand or by retention cut short).
            for name in names where name.hasPrefix(SegmentName.prefix) {
                for suffix in [SegmentName.rollup, SegmentName.index, SegmentName.visitors, SegmentName.members, SegmentName.visitorIndex]
                where name.hasSuffix(suffix) {
                    let stamp = String(name.dropFirst(SegmentName.prefix.count).dropLast(suffix.count))
                    let belongsToGzip = suffix == SegmentName.index || suffix == SegmentName.members || suffix == SegmentName.visitorIndex
                    if !stamps.contains(stamp) || (belongsToGzip && !compressed.contains(stamp)) {
                        unlink(directory + "/" + name)
                    }
                }
            }
        }
        return opened
    }

    /// A damaged segment, moved into `damaged/` when repairing (logged either way).
    static func setAside(
        _ directory: String, stamp: String, compressed: Bool, reason: String, events: Int?, repair: Bool, logger: Logger
    ) -> SetAsideSegment {
        let file = SegmentName.dataFile(stamp, compressed: compressed)
        if repair {
            do {
                let segment = try DamagedSegments.setAside(
                    directory: directory, stamp: stamp, compressed: compressed, reason: reason, events: events)
                logger.error("set aside a damaged report segment; serving the rest",
                             metadata: ["file": "\(file)", "reason": "\(reason)", "moved to": "\(DamagedSegments.folderName)/\(file)"])
                return segment
            } catch {
                logger.error("a damaged report segment could not be set aside; left out",
                             metadata: ["file": "\(file)", "reason": "\(reason)", "error": "\(error)"])
            }
        } else {
            logger.warning("a report segment is damaged; left out", metadata: ["file": "\(file)", "reason": "\(reason)"])
        }
        return SetAsideSegment(file: file, reason: reason, events: events, released: false)
    }

    /// A damaged companion file of a segment whose events are whole (the visitor index): moved
    /// into `damaged/` when repairing, to be made again; logged either way.
    static func setAside(_ directory: String, companion file: String, reason: String, repair: Bool, logger: Logger) {
        guard repair else {
            logger.warning("a report segment's visitor index is damaged; not used", metadata: ["file": "\(file)", "reason": "\(reason)"])
            return
        }
        do {
            try DamagedSegments.setAside(companion: file, directory: directory, reason: reason)
            logger.error("set aside a damaged visitor index; indexing its segment again",
                         metadata: ["file": "\(file)", "reason": "\(reason)", "moved to": "\(DamagedSegments.folderName)/\(file)"])
        } catch {
            unlink(directory + "/" + file)
            logger.error("a damaged visitor index could not be set aside; removed, indexing its segment again",
                         metadata: ["file": "\(file)", "reason": "\(reason)", "error": "\(error)"])
        }
    }

    /// Cuts a last line without its newline (a write torn by a crash); returns the new size.
    static func truncateTornTail(_ path: String, size: Int64, logger: Logger) throws -> Int64 {
        guard size > 0 else { return size }
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return size }
        defer { close(fd) }
        var end = size
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while end > 0 {
            let count = Int(min(Int64(chunk.count), end))
            let got = try chunk.withUnsafeMutableBytes { try readFully(fd, UnsafeMutableRawBufferPointer(rebasing: $0[..<count]), at: end - Int64(count)) }
            guard got == count else { return size }
            if let last = chunk[..<count].lastIndex(of: 10) {
                end = end - Int64(count) + Int64(last) + 1
                break
            }
            end -= Int64(count)
        }
        if end < size {
            guard ftruncate(fd, off_t(end)) == 0 else { throw ScanError(code: errno).at(path) }
            logger.warning(
                "cut an incomplete last line (torn by a crash)", metadata: ["file": "\(path)", "bytes": "\(size - end)"])
        }
        return end
    }

    /// Counts a segment's lines `[from, end)` into a rollup; malformed lines take bytes but count no event.
    static func scan(_ path: String, compressed: Bool, from: Int64 = 0, end: Int64 = .max, interner: Interner) throws -> Rollup {
        var visitors = VisitorFilter()
        return try scan(path, compressed: compressed, from: from, end: end, interner: interner, visitors: &visitors)
    }

    /// The same, adding the visitors met to `visitors`.
    static func scan(
        _ path: String, compressed: Bool, from: Int64 = 0, end: Int64 = .max, interner: Interner, visitors: inout VisitorFilter
    ) throws -> Rollup {
        var malformed: [Int64] = []
        return try scan(path, compressed: compressed, from: from, end: end, interner: interner, visitors: &visitors, malformed: &malformed)
    }

    /// The same, adding the offsets of lines that are not events to `malformed`.
    static func scan(
        _ path: String, compressed: Bool, from: Int64 = 0, end: Int64 = .max, interner: Interner, visitors: inout VisitorFilter,
        malformed: inout [Int64]
    ) throws -> Rollup {
        guard let reader = try SegmentLineReader(path: path, compressed: compressed, from: from, end: end) else { return Rollup() }
        var builder = RollupBuilder(interner: interner)
        var counted = from
        while let line = try reader.next() {
            guard let bytes = line.bytes,
                let event = try? bytes.withUnsafeBufferPointer({ try ReportEvent(parsing: $0) })
            else {
                malformed.append(line.offset)
                continue
            }
            let lineEnd = line.offset + Int64(bytes.count) + 1
            if let hash = builder.add(event, ms: ReportTimestamp.milliseconds(event.timestamp), bytes: Int(lineEnd - counted)) {
                visitors.add(hash: hash)
            }
            counted = lineEnd
        }
        var rollup = builder.rollup
        rollup.bytes += reader.position - counted
        return rollup
    }

    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }
}

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

/// The store's check, behind `dynamic-home reports check`: reads every segment whole and compares
/// it with its rollup on disk; names every problem of every file rather than stopping at the first. With `setAside`,
/// damaged segments are moved into `damaged/` and released, so the shipper passes them.
public enum ReportCheck {
    /// One thing wrong with one file.
    public struct Problem: Sendable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// The data does not decode: a corrupt or truncated gzip.
            case damaged
            /// The file cannot be read (a system error, e.g. permissions).
            case unreadable
            /// Lines that are not events, a torn last line among them.
            case malformed
            /// The rollup, visitor filter or size disagrees with the events.
            case mismatch
            /// In `damaged/`, not released: the shipper waits at it.
            case setAside = "set aside"
        }
        public var kind: Kind
        /// The file's name in the report directory (in `damaged/` for `setAside`).
        public var file: String
        /// What is wrong, for a person.
        public var reason: String
        public var description: String { "\(kind.rawValue): \(file): \(reason)" }
    }

    public struct Report: Sendable {
        /// Segments read (those in `damaged/` not counted).
        public var segments = 0
        /// Every problem found, in file order; empty when the directory is sound.
        public var problems: [Problem] = []
        /// Segments this run moved into `damaged/` or released there (with `setAside`).
        public var setAside: [SetAsideSegment] = []
    }

    public static func run(directory: String, setAside: Bool = false) throws -> Report {
        let interner = Interner()
        // Reading only (until `setAside` acts): lists and counts, repairs nothing.
        let opened = try SegmentDirectory.open(
            directory, interner: Interner(), repair: false, logger: Logger(label: "report-check") { _ in SwiftLogNoOpLogHandler() })
        var report = Report(segments: opened.segments.count + opened.damaged.count)
        var damaged: [(stamp: String, compressed: Bool, reason: String)] = []
        for segment in opened.damaged {
            report.problems.append(Problem(kind: .damaged, file: segment.file, reason: segment.reason))
            if let (stamp, compressed) = SegmentName.stamp(ofDataFile: segment.file) { damaged.append((stamp, compressed, segment.reason)) }
        }
        for segment in opened.segments {
            let found = check(segment, directory: directory, interner: interner)
            report.problems += found
            if let problem = found.first(where: { $0.kind == .damaged }) {
                damaged.append((segment.stamp, segment.compressed, problem.reason))
            }
        }
        let waiting = DamagedSegments.list(directory).filter { !$0.released }
        for segment in waiting {
            report.problems.append(Problem(
                kind: .setAside, file: DamagedSegments.folderName + "/" + segment.file,
                reason: "\(segment.reason); not released, so the report shipper waits at it"))
        }
        report.problems.sort { $0.file.split(separator: "/").last! < $1.file.split(separator: "/").last! }
        guard setAside else { return report }
        for (stamp, compressed, reason) in damaged {
            let events = (try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + SegmentName.rollupFile(stamp))))
                .flatMap { RollupFile.decode([UInt8]($0), interner: interner) }?.rollup.lines
            report.setAside.append(try DamagedSegments.setAside(
                directory: directory, stamp: stamp, compressed: compressed, reason: reason, events: events, released: true))
        }
        for segment in waiting { report.setAside.append(try DamagedSegments.release(directory: directory, segment)) }
        let dealtWith = Set(report.setAside.map(\.file))
        report.problems.removeAll { problem in
            (problem.kind == .damaged || problem.kind == .setAside) && dealtWith.contains(String(problem.file.split(separator: "/").last!))
        }
        return report
    }

    /// Everything wrong with one segment: its data read whole, then compared with its rollup and filter.
    static func check(_ segment: SegmentEntry, directory: String, interner: Interner) -> [Problem] {
        let name = SegmentName.dataFile(segment.stamp, compressed: segment.compressed)
        let path = directory + "/" + name
        var problems: [Problem] = []
        func add(_ kind: Problem.Kind, _ reason: String) { problems.append(Problem(kind: kind, file: name, reason: reason)) }
        var stored: RollupFile.Contents?
        if let data = try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + SegmentName.rollupFile(segment.stamp))) {
            stored = RollupFile.decode([UInt8](data), interner: interner)
            if stored == nil { add(.mismatch, "rollup file torn or corrupt") }
        } else {
            add(.mismatch, "no rollup file")
        }
        let size = segment.compressed ? nil : SegmentDirectory.fileSize(path)
        if let contents = stored, contents.closed, let size, size != contents.rollup.bytes {
            add(.mismatch, "segment has \(size) bytes, its closed rollup counts \(contents.rollup.bytes)")
            stored = nil
        }
        // Read every line (to the rollup's end when it is whole, so lines written meanwhile do not count).
        var visitors = VisitorFilter()
        var malformed: [Int64] = []
        let scanned: Rollup
        do {
            scanned = try SegmentDirectory.scan(
                path, compressed: segment.compressed, end: stored?.rollup.bytes ?? .max, interner: interner, visitors: &visitors,
                malformed: &malformed)
        } catch let error as ScanError {
            add(error.damage != nil ? .damaged : .unreadable, error.reason)
            return problems
        } catch {
            add(.unreadable, "\(error)")
            return problems
        }
        if !malformed.isEmpty {
            let offsets = malformed.prefix(5).map(String.init).joined(separator: ", ") + (malformed.count > 5 ? ", …" : "")
            add(.malformed, "\(malformed.count) line\(malformed.count == 1 ? "" : "s") not an event, at byte offset \(offsets)")
        }
        if let size, let torn = tornTail(path, size: size) {
            add(.malformed, "a torn last line: \(torn) bytes without a newline at the end")
        }
        if let stored, scanned != stored.rollup {
            var reason = "rollup differs from the events"
            if scanned.lines != stored.rollup.lines { reason += ": \(scanned.lines) events, rollup says \(stored.rollup.lines)" }
            add(.mismatch, reason)
        }
        // A visitor filter may say "maybe" wrongly, never "no": it must hold every visitor.
        let filterPath = directory + "/" + SegmentName.visitorsFile(segment.stamp)
        if FileManager.default.fileExists(atPath: filterPath) {
            if let filter = VisitorFilter.load(filterPath) {
                if stored?.closed == true && !filter.covers(visitors) { add(.mismatch, "visitor filter misses visitors of the segment") }
            } else {
                add(.mismatch, "visitor filter torn or corrupt")
            }
        }
        // A visitor index must lead to every member of every visitor: whole, and made for this segment.
        let indexPath = directory + "/" + SegmentName.visitorIndexFile(segment.stamp)
        if segment.compressed, FileManager.default.fileExists(atPath: indexPath),
           let index = GzipIndex.load(directory + "/" + SegmentName.indexFile(segment.stamp)),
           let problem = VisitorIndex.problem(indexPath, members: index.members.count - 1, bytes: index.members.last?.uncompressed ?? 0) {
            add(.mismatch, "visitor index: \(problem)")
        }
        return problems
    }

    /// Bytes after a plain segment's last newline (a write torn by a crash), nil when none.
    static func tornTail(_ path: String, size: Int64) -> Int64? {
        guard size > 0 else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let count = Int(min(size, Int64(maxLineBytes)))
        var tail = [UInt8](repeating: 0, count: count)
        let got = (try? tail.withUnsafeMutableBytes { try readFully(fd, $0, at: size - Int64(count)) }) ?? 0
        guard got == count, tail.last != 10 else { return nil }
        return Int64(count - 1 - (tail.lastIndex(of: 10) ?? -1))
    }
}

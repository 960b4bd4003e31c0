import Foundation
import Logging

/// `dynamic-home reports check`: recounts every segment and compares with its rollup on disk.
public enum ReportCheck {
    /// A segment whose rollup is wrong, missing or torn.
    public struct Mismatch: Sendable, CustomStringConvertible {
        /// The segment's file name.
        public var segment: String
        /// What is wrong.
        public var reason: String
        public var description: String { "\(segment): \(reason)" }
    }

    /// The segments checked and the mismatches found (empty: every rollup equals its segment).
    public static func run(directory: String, logger: Logger = Logger(label: "report-check")) throws -> (segments: Int, mismatches: [Mismatch]) {
        let interner = Interner()
        // Reading only: lists and counts, repairs nothing.
        let opened = try SegmentDirectory.open(directory, interner: Interner(), repair: false, logger: Logger(label: "report-check") { _ in SwiftLogNoOpLogHandler() })
        var mismatches: [Mismatch] = []
        for segment in opened.segments {
            let name = SegmentName.dataFile(segment.stamp, compressed: segment.compressed)
            let path = directory + "/" + name
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + SegmentName.rollupFile(segment.stamp))) else {
                mismatches.append(Mismatch(segment: name, reason: "no rollup file"))
                continue
            }
            guard let stored = RollupFile.decode([UInt8](data), interner: interner) else {
                mismatches.append(Mismatch(segment: name, reason: "rollup file torn or corrupt"))
                continue
            }
            let size = segment.compressed ? nil : SegmentDirectory.fileSize(path)
            if stored.closed, let size, size != stored.rollup.bytes {
                mismatches.append(Mismatch(segment: name, reason: "segment has \(size) bytes, its closed rollup counts \(stored.rollup.bytes)"))
                continue
            }
            var visitors = VisitorFilter()
            let scanned = try SegmentDirectory.scan(
                path, compressed: segment.compressed, end: stored.rollup.bytes, interner: interner, visitors: &visitors)
            if scanned != stored.rollup {
                var reason = "rollup differs from the events"
                if scanned.lines != stored.rollup.lines { reason += ": \(scanned.lines) events, rollup says \(stored.rollup.lines)" }
                mismatches.append(Mismatch(segment: name, reason: reason))
            }
            // A visitor filter may say "maybe" wrongly, never "no": it must hold every visitor.
            let filterPath = directory + "/" + SegmentName.visitorsFile(segment.stamp)
            if FileManager.default.fileExists(atPath: filterPath) {
                if let filter = VisitorFilter.load(filterPath) {
                    if stored.closed && !filter.covers(visitors) {
                        mismatches.append(Mismatch(segment: name, reason: "visitor filter misses visitors of the segment"))
                    }
                } else {
                    mismatches.append(Mismatch(segment: name, reason: "visitor filter torn or corrupt"))
                }
            }
        }
        return (opened.segments.count, mismatches)
    }
}

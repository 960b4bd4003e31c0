import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's import, behind `dynamic-home reports import`: takes JSON Lines files (an old
/// single-file log, or lines from another instance) into a report directory, segments and
/// rollups included. Here rather than in the executable: it writes through the store's own
/// segment sink and maintenance.
public enum ReportImport {
    /// What an import did.
    public struct Result: Sendable, CustomStringConvertible {
        /// Events written into the store.
        public var imported = 0
        /// Lines skipped as malformed or torn.
        public var skipped = 0
        /// Events whose time was raised to the previous line's, so the store's times never go back.
        public var raised = 0
        /// Wall-clock seconds taken (compression of the last segments included).
        public var seconds = 0.0

        public var description: String {
            let rate = seconds > 0 ? Int(Double(imported) / seconds) : imported
            var text = "imported \(imported) events in \(String(printf: "%.2f", seconds)) s (\(rate) events/s)"
            if skipped > 0 { text += "; skipped \(skipped) malformed lines" }
            if raised > 0 { text += "; \(raised) events older than the line before them were given its time" }
            return text
        }
    }

    /// Imports `files` in order of their first event into `directory` (created if missing).
    /// Not to be run while a server writes the same directory.
    public static func run(
        files: [String], directory: String, segmentBytes: Int64 = 64 << 20, compress: Bool = true,
        logger: Logger = Logger(label: "report-import")
    ) throws -> Result {
        let started = DispatchTime.now()
        let interner = Interner()
        let opened = try SegmentDirectory.open(directory, interner: interner, repair: true, logger: logger)
        let catalog = SegmentCatalog(directory: directory, interner: interner, segments: opened.segments)
        let maintenance = try Maintenance(catalog: catalog, sync: false, compress: compress, retention: .init(), logger: logger)
        if compress { for stamp in opened.uncompressed { maintenance.submit(.compress(stamp)) } }
        for stamp in opened.toIndex { maintenance.submit(.indexVisitors(stamp)) }
        let sink = SegmentSink(catalog: catalog, segmentBytes: segmentBytes, sync: false, chunkBytes: 1 << 20, maintenance: maintenance, logger: logger,
                               talliesInBackground: false)
        var result = Result()
        defer {
            sink.closeActive()
            maintenance.shutdown(drain: true)
        }
        let ordered = try files.map { ($0, try firstMilliseconds($0)) }.sorted { ($0.1 ?? .max) < ($1.1 ?? .max) }.map(\.0)
        for file in ordered {
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ReportStoreError("cannot open \(file): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw ReportStoreError("\(file) is not a file") }
            var scanner = ForwardLineScanner(fd: fd, end: Int64(info.st_size))
            do {
                while let line = try scanner.next() {
                    guard let bytes = line.bytes,
                        var event = try? bytes.withUnsafeBufferPointer({ try ReportEvent(parsing: $0) })
                    else {
                        result.skipped += 1
                        continue
                    }
                    let original = ReportTimestamp.milliseconds(event.timestamp)
                    let ms = sink.monotonic(original)
                    if ms != original {
                        event.timestamp = ReportTimestamp.date(milliseconds: ms)
                        result.raised += 1
                    }
                    let bound = event.jsonLineBound
                    var target = sink.room(ms: ms, bound: bound)
                    if target == nil {
                        try flush(sink)
                        target = sink.room(ms: ms, bound: bound)
                    }
                    sink.commit(event.writeJSONLine(to: target!), &event, ms: ms)
                    result.imported += 1
                }
            } catch let error as ScanError {
                throw ReportStoreError("cannot read \(file): \(error.reason)")
            }
            try flush(sink)
        }
        sink.closeActive()
        maintenance.shutdown(drain: true)
        result.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return result
    }

    static func flush(_ sink: SegmentSink) throws {
        let (_, error) = sink.flush()
        if error != 0 { throw ReportStoreError("cannot write to the report directory: \(String(cString: strerror(error)))") }
    }

    /// The time of a file's first well-formed line, for ordering files.
    static func firstMilliseconds(_ file: String) throws -> Int64? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReportStoreError("cannot open \(file): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var scanner = ForwardLineScanner(fd: fd, end: Int64(info.st_size))
        for _ in 0..<1000 {
            guard let line = try? scanner.next() else { return nil }
            if let bytes = line.bytes, let event = try? ReportEvent(jsonLine: bytes) { return ReportTimestamp.milliseconds(event.timestamp) }
        }
        return nil
    }
}

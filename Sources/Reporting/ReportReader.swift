import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the report log while it is being written, in chunks with bounded memory.
/// Malformed or torn lines are skipped, and each is logged once per reader.
public final class ReportReader: Sendable {
    /// The JSON Lines file read; a missing file reads as empty.
    public let path: String
    let logger: Logger
    let reported = Mutex(Set<Int64>())

    /// Creates a reader of the log at `path`.
    public init(path: String, logger: Logger = Logger(label: "report-reader")) {
        self.path = path
        self.logger = logger
    }

    /// How many distinct malformed lines this reader has skipped (and logged) so far.
    public var malformedLinesSkipped: Int { reported.withLock { $0.count } }

    /// Calls `body` with each matching event, oldest first.
    public func forEachEvent(matching filter: ReportFilter = ReportFilter(), _ body: (ReportEvent) throws -> Void) throws {
        try withFile { fd, size in
            var scanner = ForwardLineScanner(fd: fd, end: size)
            while let line = try scanner.next() {
                if let event = decode(line), filter.matches(event) { try body(event) }
            }
        }
    }

    /// Up to `limit` matching events, newest first, older than `before` (from the end when nil).
    public func page(matching filter: ReportFilter = ReportFilter(), limit: Int = 50, before: ReportCursor? = nil) throws -> ReportPage {
        var page = ReportPage(events: [], nextCursor: nil)
        guard limit > 0 else { return page }
        try withFile { fd, size in
            let end = min(size, before?.offset ?? size)
            var scanner = BackwardLineScanner(fd: fd, end: end)
            // A hand-made cursor may point into a line: skip that fragment quietly.
            var skipFirst = false
            if end > 0 && end < size {
                var previous: UInt8 = 0
                skipFirst = pread(fd, &previous, 1, off_t(end - 1)) == 1 && previous != UInt8(ascii: "\n")
            }
            while let line = try scanner.next() {
                if skipFirst {
                    skipFirst = false
                    continue
                }
                guard let event = decode(line), filter.matches(event) else { continue }
                page.events.append(event)
                if page.events.count == limit {
                    page.nextCursor = line.offset > 0 ? ReportCursor(offset: line.offset) : nil
                    return
                }
            }
        }
        return page
    }

    /// Counts of the matching events, in total, per event name and per layout.
    public func summary(matching filter: ReportFilter = ReportFilter()) throws -> ReportSummary {
        var summary = ReportSummary()
        try forEachEvent(matching: filter) { event in
            summary.total += 1
            summary.byEvent[event.name.rawValue, default: 0] += 1
            if let layout = event.layout { summary.byLayout[layout, default: 0] += 1 }
        }
        return summary
    }

    /// Matching events per minute for the `minutes` whole minutes up to and including `now`'s, oldest first.
    /// Reads backwards and stops once lines are 5 minutes older than the window (the file is in
    /// record order, so timestamps only run backwards by the time an event took to be recorded).
    public func eventsPerMinute(
        matching filter: ReportFilter = ReportFilter(), minutes: Int = 60, endingAt now: Date = Date()
    ) throws -> [MinuteCount] {
        let count = max(1, minutes)
        let lastMinute = ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(now), 60_000)
        let firstMinute = lastMinute - Int64(count - 1)
        var counts = [Int](repeating: 0, count: count)
        try withFile { fd, size in
            var scanner = BackwardLineScanner(fd: fd, end: size)
            while let line = try scanner.next() {
                guard let event = decode(line) else { continue }
                let minute = ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(event.timestamp), 60_000)
                if minute < firstMinute - 5 { return }
                if minute >= firstMinute, minute <= lastMinute, filter.matches(event) { counts[Int(minute - firstMinute)] += 1 }
            }
        }
        return counts.enumerated().map { offset, value in
            MinuteCount(start: ReportTimestamp.date(milliseconds: (firstMinute + Int64(offset)) * 60_000), count: value)
        }
    }

    /// A pull stream of the raw well-formed lines at or after `since`, for `GET /reports.jsonl`.
    public func lineStream(since: Date? = nil) throws -> ReportLineStream {
        let fd = try openFile()
        guard fd >= 0 else { return ReportLineStream(reader: self, scanner: nil, since: since) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw ReportReaderError(path: path, code: code)
        }
        return ReportLineStream(reader: self, scanner: ForwardLineScanner(fd: fd, end: Int64(info.st_size)), since: since)
    }

    /// Decodes a scanned line; nil (logged once per line) if it is malformed or torn.
    func decode(_ line: ScannedLine) -> ReportEvent? {
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
        let isNew = reported.withLock { $0.count < 100_000 && $0.insert(line.offset).inserted }
        if isNew {
            logger.warning(
                "skipping malformed report line", metadata: ["file": "\(path)", "offset": "\(line.offset)", "reason": "\(failure)"])
        }
        return nil
    }

    /// Opens the file read-only; -1 if it does not exist yet.
    func openFile() throws -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno != ENOENT { throw ReportReaderError(path: path, code: errno) }
        return fd
    }

    /// Runs `body` with the open file and its size now; lines appended meanwhile are not read.
    func withFile(_ body: (Int32, Int64) throws -> Void) throws {
        let fd = try openFile()
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ReportReaderError(path: path, code: errno) }
        do {
            try body(fd, Int64(info.st_size))
        } catch let error as ScanError {
            throw ReportReaderError(path: path, code: error.code)
        }
    }
}

/// The report log could not be read.
public struct ReportReaderError: Error, CustomStringConvertible {
    /// The file.
    public let path: String
    /// The errno.
    public let code: Int32
    public var description: String { "cannot read report log \(path): \(String(cString: strerror(code)))" }
}

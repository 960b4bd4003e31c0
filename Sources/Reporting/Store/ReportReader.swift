import Foundation
import Logging
import Synchronization

/// The report pages' older reading interface, kept as a thin layer over `ReportStore`.
public final class ReportReader: Sendable {
    /// The report directory read.
    public let path: String
    let logger: Logger

    /// Creates a reader of the directory at `path` (the running log's own store if there is one).
    public init(path: String, logger: Logger = Logger(label: "report-reader")) {
        self.path = path
        self.logger = logger
    }

    func store() throws -> ReportStore {
        do {
            return try ReportStore.shared(directory: path, logger: logger)
        } catch {
            throw ReportReaderError(path: path, message: "\(error)")
        }
    }

    /// How many distinct malformed lines have been skipped (and logged) so far.
    public var malformedLinesSkipped: Int { ((try? store())?.reported.withLock { $0.count }) ?? 0 }

    /// Calls `body` with each matching event, oldest first.
    public func forEachEvent(matching filter: ReportFilter = ReportFilter(), _ body: (ReportEvent) throws -> Void) throws {
        let store = try store()
        for segment in store.catalog.segments {
            guard let reader = try store.reader(segment, end: segment.rollup.bytes) else { continue }
            while let line = try reader.next() {
                if let event = store.decode(line, segment: segment.stamp), filter.matches(event) { try body(event) }
            }
        }
    }

    /// Up to `limit` matching events, newest first, older than `before` (from the end when nil).
    public func page(matching filter: ReportFilter = ReportFilter(), limit: Int = 50, before: ReportCursor? = nil) throws -> ReportPage {
        let page = try store().events(matching: filter, before: before?.position, limit: limit)
        return ReportPage(events: page.events, nextCursor: page.next.map(ReportCursor.init(position:)))
    }

    /// Counts of the matching events over everything, from the rollups.
    public func summary(matching filter: ReportFilter = ReportFilter()) throws -> ReportSummary {
        try store().summary(ReportRange(), filter: filter)
    }

    /// Matching events per minute for the `minutes` whole minutes up to and including `now`'s, oldest first.
    public func eventsPerMinute(
        matching filter: ReportFilter = ReportFilter(), minutes: Int = 60, endingAt now: Date = Date()
    ) throws -> [MinuteCount] {
        let count = max(1, minutes)
        let lastMinute = ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(now), 60_000)
        let firstMinute = lastMinute - Int64(count - 1)
        let perMinute = try store().minuteCounts(from: firstMinute, to: lastMinute + 1, filter: filter)
        var counts = [Int](repeating: 0, count: count)
        for (minute, value) in perMinute where minute >= firstMinute && minute <= lastMinute { counts[Int(minute - firstMinute)] += value }
        return counts.enumerated().map { offset, value in
            MinuteCount(start: ReportTimestamp.date(milliseconds: (firstMinute + Int64(offset)) * 60_000), count: value)
        }
    }

    /// A pull stream of the raw lines at or after `since`, for `GET /reports.jsonl`.
    public func lineStream(since: Date? = nil) throws -> ReportLineStream {
        ReportLineStream(lines: try store().lines(since: since))
    }
}

/// The report log could not be read.
public struct ReportReaderError: Error, CustomStringConvertible {
    /// The directory.
    public let path: String
    /// What went wrong.
    public let message: String
    public var description: String { "cannot read report log \(path): \(message)" }
}

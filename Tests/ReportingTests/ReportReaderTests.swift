import Foundation
import TestSupport
import Testing

@testable import Reporting

@Suite struct ReportReaderTests {
    static let start = ReportTimestamp.date(milliseconds: 1_795_262_400_000)  // 2026-11-21T12:00:00Z

    /// Writes `count` events one minute apart, alternating layouts and two event names.
    func writeLog(_ path: String, count: Int) throws -> [ReportEvent] {
        let events = (0..<count).map { (index: Int) -> ReportEvent in
            let name: ReportEvent.Name = index % 3 == 0 ? .launch : .longSelected
            let layout = index % 2 == 0 ? "list" : "grid"
            let visitor = index < 5 ? "early" : "late"
            let timestamp = Self.start.addingTimeInterval(Double(index) * 60)
            return ReportEvent(name, timestamp: timestamp, layout: layout, item: "m-\(index)", visitor: visitor)
        }
        let text: String = events.map { $0.jsonLine + "\n" }.joined()
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return events
    }

    @Test func sinceFilterAndRawStream() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        let events = try writeLog(path, count: 10)
        let reader = ReportReader(path: path)
        var seen: [ReportEvent] = []
        try reader.forEachEvent(matching: ReportFilter(since: Self.start.addingTimeInterval(5 * 60))) { seen.append($0) }
        #expect(seen == Array(events[5...]))

        let stream = try reader.lineStream(since: Self.start.addingTimeInterval(7 * 60))
        var bytes: [UInt8] = []
        while let chunk = stream.nextChunk(maxBytes: 10) { bytes += chunk }
        #expect(String(decoding: bytes, as: UTF8.self) == events[7...].map { $0.jsonLine + "\n" }.joined())
        #expect(stream.nextChunk() == nil)
    }

    @Test func pagesNewestFirstWithFiltersAcrossChunks() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        // Enough lines to span several 64 KiB chunks in both directions.
        let events = try writeLog(path, count: 3000)
        let reader = ReportReader(path: path)
        var collected: [ReportEvent] = []
        var cursor: ReportCursor?
        var pages = 0
        repeat {
            let page = try reader.page(matching: ReportFilter(layout: "grid"), limit: 70, before: cursor)
            collected += page.events
            cursor = page.nextCursor.flatMap { ReportCursor($0.description) }
            pages += 1
        } while cursor != nil && pages < 100
        #expect(collected == events.filter { $0.layout == "grid" }.reversed())
        let visitorPage = try reader.page(matching: ReportFilter(event: "launch", visitor: "early"), limit: 10)
        #expect(visitorPage.events.map(\.item) == ["m-3", "m-0"])
        #expect(visitorPage.nextCursor == nil)
        #expect(try reader.page(matching: ReportFilter(item: "m-2999"), limit: 1).events.map(\.item) == ["m-2999"])
        let second = try #require(try reader.page(limit: 2).nextCursor)
        let inside = try reader.page(limit: 1, before: ReportCursor(offset: second.offset - 5))
        #expect(inside.events.map(\.item) == ["m-2996"], "a cursor inside a line skips that line")
        #expect(reader.malformedLinesSkipped == 0)
    }

    @Test func countsPerEventAndLayoutAndPerMinute() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        _ = try writeLog(path, count: 90)
        let reader = ReportReader(path: path)
        let summary = try reader.summary()
        #expect(summary == ReportSummary(total: 90, byEvent: ["launch": 30, "long_selected": 60], byLayout: ["list": 45, "grid": 45]))
        #expect(try reader.summary(matching: ReportFilter(layout: "grid")).byEvent == ["launch": 15, "long_selected": 30])

        // The last event is at 13:29; ask for the hour ending at 13:29:30.
        let now = Self.start.addingTimeInterval(89 * 60 + 30)
        let minutes = try reader.eventsPerMinute(minutes: 60, endingAt: now)
        #expect(minutes.count == 60)
        #expect(minutes.first?.start == Self.start.addingTimeInterval(30 * 60))
        #expect(minutes.last?.start == Self.start.addingTimeInterval(89 * 60))
        #expect(minutes.allSatisfy { $0.count == 1 })
        let launches = try reader.eventsPerMinute(matching: ReportFilter(event: "launch"), minutes: 60, endingAt: now)
        #expect(launches.map(\.count).reduce(0, +) == 20)
        let later = try reader.eventsPerMinute(minutes: 10, endingAt: now.addingTimeInterval(5 * 60))
        #expect(later.map(\.count) == [1, 1, 1, 1, 1, 0, 0, 0, 0, 0])
    }

    @Test func malformedLinesInTheMiddleAreSkippedAndReportedOnce() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        let good = ReportEvent(.launch, timestamp: Self.start, item: "ok").jsonLine
        let huge = "{\"x\":\"" + String(repeating: "y", count: maxLineBytes + 10) + "\"}"
        try [good, "not json", good, huge, "", good].joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let reader = ReportReader(path: path)
        var count = 0
        try reader.forEachEvent { _ in count += 1 }
        #expect(count == 3)
        #expect(reader.malformedLinesSkipped == 2)
        #expect(try reader.page(limit: 10).events.count == 3)
        #expect(reader.malformedLinesSkipped == 2)
    }

    @Test func missingFileReadsAsEmpty() throws {
        let reader = ReportReader(path: "/nonexistent-\(UUID().uuidString)/reports.jsonl")
        #expect(try reader.summary() == ReportSummary())
        #expect(try reader.page().events.isEmpty)
        #expect(try reader.lineStream().nextChunk() == nil)
        #expect(try reader.eventsPerMinute(minutes: 3).map(\.count) == [0, 0, 0])
    }
}

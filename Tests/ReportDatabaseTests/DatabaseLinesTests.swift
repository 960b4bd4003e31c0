import Foundation
import Logging
import ReportDatabase
import Reporting
import Testing
import TestSupport

/// Every instance's lines read back from a real PostgreSQL, a few rows a page: windows over two
/// days, pages resumed inside a window, `since` — each line as the instance's log wrote it.
@Suite(.enabled(if: RealParts.required || TemporaryPostgres.binaryFolder != nil, "PostgreSQL is not installed (apt-get install postgresql)"))
struct DatabaseLinesTests {
    @Test func pagesGiveBackEveryLineOnceInTimeOrder() throws {
        let postgres = try TestDatabase()
        let directory = try TemporaryDirectory("shared-lines")
        var written: [String] = []
        for (index, day) in ["2026-11-20", "2026-11-21"].enumerated() {
            var bytes: [UInt8] = []
            for number in 0..<40 {
                // Pairs of events share a millisecond: the pages resume after a row, not a time.
                let event = ReportEvent(.launch, timestamp: ReportTimestamp.parse("\(day)T10:00:00.000Z")!.addingTimeInterval(Double(number / 2)),
                                        layout: "grid", item: "\(index)-\(number)", visitor: "v\(number % 3)",
                                        properties: ["experiment.hero": number % 2 == 0 ? "a" : "b\t\"c\\"])
                event.appendJSONLine(to: &bytes)
                written.append(event.jsonLine)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: directory.path("events-\(day.filter(\.isNumber))T100000.000Z.jsonl")))
        }
        var configuration = ShipperConfiguration(databaseURL: postgres.url, instance: "a:1", reportLog: directory.url.path)
        configuration.pollInterval = 0.05
        let shipper = ReportShipper(configuration: configuration, logger: Logger(label: "test"))
        try shipper.start()
        defer { shipper.shutdown() }
        try eventually("80 events shipped", timeout: 30) { (try? postgres.psql("SELECT count(*) FROM report_events")) == "80" }

        let reports = DatabaseReports(url: postgres.url)
        func read(since: Date?) throws -> [String] {
            var lines = DatabaseLines(reports, since: since, pageRows: 7)
            var out: [String] = []
            while let page = try lines.next() { out += String(decoding: page, as: UTF8.self).split(separator: "\n").map(String.init) }
            return out
        }
        #expect(try postgres.psql("SELECT count(*) FROM report_events") == "80")
        let all = try read(since: nil)
        #expect(all == written, "\(all.count) lines")
        #expect(try read(since: ReportTimestamp.parse("2026-11-21T10:00:05.000Z")) == Array(written[50...]))
        #expect(try read(since: Date()) == [])
    }
}

import Foundation
import Testing
import TestSupport

@testable import Reporting

/// A segment the writer opens that already ends mid-line: its next line starts on a line of its own.
@Suite struct TornSegmentTests {
    @Test func aSegmentOpenedWithATornLastLineGetsANewlineBeforeTheNextEvent() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports")
        var configuration = ReportLog.Configuration(directory: path)
        configuration.compress = false
        let log = try ReportLog(configuration: configuration)
        // Put in the next segment's place after the log opened (so not repaired), cut mid-line.
        let segment = path + "/" + SegmentName.dataFile(SegmentName.stamp(milliseconds: dayStart), compressed: false)
        try Data(#"{"event":"launch","timestamp":"2026-11-2"#.utf8).write(to: URL(fileURLWithPath: segment))
        let written = DispatchSemaphore(value: 0)
        log.record(event(at: dayStart, item: "after")) { _ in written.signal() }
        #expect(written.wait(timeout: .now() + 10) == .success)
        log.shutdown()
        let lines = try fileLines(segment)
        #expect(lines.count == 2, "the torn line, then the event on its own line")
        #expect(try ReportEvent(jsonLine: try #require(lines.last)).item == "after")
    }
}

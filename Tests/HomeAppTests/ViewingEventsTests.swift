import Foundation
import Logging
import Reporting
import Testing
import TestSupport
@testable import HomeApp

/// Reading the viewing events back from the report log.
@Suite struct ViewingEventsTests {
    /// A log of other events only: `count` launches, as one segment of today.
    static func launches(_ count: Int, in directory: TemporaryDirectory) throws -> ViewingEvents {
        let folder = directory.path("reports")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let start = Date().addingTimeInterval(-3600)
        var text = ""
        for index in 0..<count {
            let time = formatter.string(from: start.addingTimeInterval(Double(index) / 1000))
            text += #"{"timestamp":"\#(time)","event":"launch","visitor":"v\#(index)","properties":{}}"# + "\n"
        }
        let name = formatter.string(from: start).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/events-\(name).jsonl"))
        return ViewingEvents(store: try ReportStore(directory: folder), database: nil, logger: Logger(label: "test"))
    }

    @Test func aReadOfALogWithoutViewingEventsStopsWhenAskedBetweenLines() throws {
        let directory = try TemporaryDirectory("viewing-events")
        defer { directory.remove() }
        let events = try Self.launches(3 * ViewingEvents.linesBetweenStops, in: directory)
        var asked = 0
        let finished = events.forEach(ViewingEvents.names, until: .distantFuture, stop: { asked += 1; return asked == 2 }) { _ in
            Issue.record("a launch passed as a viewing event")
            return true
        }
        #expect(!finished && asked == 2)
        asked = 0
        #expect(events.forEach(ViewingEvents.names, until: .distantFuture, stop: { asked += 1; return false }) { _ in true })
        #expect(asked == 3)
    }
}

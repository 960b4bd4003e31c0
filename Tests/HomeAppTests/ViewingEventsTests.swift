import Foundation
import Logging
import Reporting
import Testing
import TestSupport
@testable import HomeApp

/// Reading the viewing events back from the report log (no report database), as the rebuild of
/// the play counts and the viewing index read them.
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

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Several segments of events, one in seven a start, one in eleven an addition to My List, the
    /// others launches whose property spells `"event":"play_started"` as a start would.
    static func written(into directory: TemporaryDirectory) throws -> [ReportEvent] {
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.segmentBytes = 256 * 1024
        let log = try ReportLog(configuration: configuration)
        var events: [ReportEvent] = []
        for index in 0..<8000 {
            let time = start.addingTimeInterval(Double(index))
            let event = index % 7 == 0
                ? ReportEvent(.playStarted, timestamp: time, item: "m-\(index % 5)", visitor: "v\(index % 13)", properties: ["duration": "5400"])
                : index % 11 == 0 ? ReportEvent(.myListAdded, timestamp: time, item: "m-\(index % 3)", visitor: "v\(index % 13)")
                : ReportEvent(.launch, timestamp: time, layout: "grid", visitor: "v\(index % 13)", properties: ["event": "play_started"])
            events.append(event)
            log.record(event)
        }
        log.shutdown()
        return events
    }

    static func read(_ directory: TemporaryDirectory, _ names: [ReportEvent.Name], since: Date = .distantPast, until: Date) throws -> [ReportEvent] {
        let store = try ReportStore(directory: directory.path("reports"))
        var read: [ReportEvent] = []
        ViewingEvents(store: store, database: nil, logger: Logger(label: "test")).forEach(names, since: since, until: until) {
            read.append($0)
            return true
        }
        return read
    }

    static func same(_ a: [ReportEvent], _ b: [ReportEvent]) -> Bool {
        a.map { "\($0.name.rawValue) \($0.timestamp.timeIntervalSince1970) \($0.visitor ?? "") \($0.item ?? "")" }
            == b.map { "\($0.name.rawValue) \($0.timestamp.timeIntervalSince1970) \($0.visitor ?? "") \($0.item ?? "")" }
    }

    @Test func theStartsAreReadBackInLogOrderEachOnceAndNotTheLinesThatOnlySpellTheirNameInAProperty() throws {
        let directory = try TemporaryDirectory("viewing-events")
        defer { directory.remove() }
        let events = try Self.written(into: directory)
        let segments = try FileManager.default.contentsOfDirectory(atPath: directory.path("reports")).filter { $0.hasPrefix("events-") && !$0.contains(".rollup") }
        #expect(segments.count > 2, "\(segments)")
        let end = Self.start.addingTimeInterval(10_000)
        #expect(Self.same(try Self.read(directory, [.playStarted], until: end), events.filter { $0.name == .playStarted }))
        #expect(Self.same(try Self.read(directory, [.playStarted, .myListAdded], until: end),
                          events.filter { $0.name == .playStarted || $0.name == .myListAdded }))
        let since = Self.start.addingTimeInterval(3000), until = Self.start.addingTimeInterval(5000)
        #expect(Self.same(try Self.read(directory, [.playStarted], since: since, until: until),
                          events.filter { $0.name == .playStarted && $0.timestamp >= since && $0.timestamp < until }))
    }
}

import Foundation
import Logging
import MicroHTTP
import Reporting
import Testing
import TestSupport
@testable import HomeApp

/// The live feed behind `/reports/stream`, without a network: what each watcher's stream is given.
@Suite struct LiveReportsTests {
    static let quiet = Logger(label: "live-reports-tests") { _ in SwiftLogNoOpLogHandler() }

    /// Waits up to 10 s for `condition`.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return condition()
    }

    @Test func aWatcherThatStopsReadingIsCutAndTheLogKeepsEverything() throws {
        let folder = try TemporaryDirectory("live-reports")
        defer { folder.remove() }
        let path = folder.path("reports.jsonl")
        let log = ReportLog(path: path, logger: Self.quiet)
        let live = LiveReports(log: log, heartbeatInterval: 60, logger: Self.quiet)
        try live.start()
        let stalled = live.watch().stream
        let padding = String(repeating: "x", count: 1_000)
        // About 1 MB of events, four times the watcher's buffer; nobody reads the stream.
        for index in 0..<1_000 { log.record(.launch, layout: "grid", item: "\(index)", properties: ["pad": padding]) }
        #expect(Self.eventually { stalled.isFinished }, "cut once too far behind")
        #expect(stalled.pendingBytes <= LiveReports.watcherBuffer)
        live.shutdown()
        log.shutdown()
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 1_000)
        #expect(log.status.dropped == 0)
    }

    @Test func eachEventIsSentWithTheLogPositionAfterIt() throws {
        let folder = try TemporaryDirectory("live-reports")
        defer { folder.remove() }
        let path = folder.path("reports.jsonl")
        let log = ReportLog(path: path, logger: Self.quiet)
        let live = LiveReports(log: log, heartbeatInterval: 60, logger: Self.quiet)
        try live.start()
        let stream = live.watch().stream
        let greeting = stream.pendingBytes
        for index in 0..<3 { log.record(.launch, item: "i\(index)") }
        log.shutdown()
        #expect(log.status.written == 3)
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let events = ServerSentEvents.events(file, at: 0)
        #expect(Self.eventually { stream.pendingBytes == greeting + events.count }, "the watcher got them all")
        live.shutdown()
        let ends = file.indices.filter { file[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        let ids = String(decoding: events, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("id: ") }
        #expect(ids == ends.map { "id: \($0)" })
        #expect(ServerSentEvents.events(file, at: 0, after: ends[1]).count < events.count / 2,
                "lines a watcher has are left out")
    }
}

import Foundation
import Logging
import Reporting
import Testing
import TestSupport
@testable import HomeApp
@testable import MicroHTTP

/// The live feed behind `/reports/stream`, without a network: what each watcher's stream is given.
@Suite struct LiveReportsTests {
    static let quiet = Logger(label: "live-reports-tests") { _ in SwiftLogNoOpLogHandler() }

    /// Everything queued on `stream`, as text.
    static func drain(_ stream: ResponseStream) -> String {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let count = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
        return String(decoding: buffer[..<max(0, count)], as: UTF8.self)
    }

    @Test func aWatcherThatStopsReadingIsCutAndTheLogKeepsEverything() throws {
        let folder = try TemporaryDirectory("live-reports")
        defer { folder.remove() }
        let log = try ReportLog(configuration: .init(directory: folder.path("reports")), logger: Self.quiet)
        let live = LiveReports(log: log, heartbeatInterval: 60, logger: Self.quiet)
        try live.start()
        let stalled = live.watch().stream
        let padding = String(repeating: "x", count: 1_000)
        // About 1 MB of events, four times the watcher's buffer; nobody reads the stream.
        for index in 0..<1_000 {
            log.record(ReportEvent(.launch, layout: "grid", item: "\(index)", properties: ["pad": padding]))
        }
        try eventually("cut once too far behind") { stalled.isFinished }
        #expect(stalled.pendingBytes <= LiveReports.watcherBuffer)
        live.shutdown()
        log.shutdown()
        #expect(log.store.eventCount == 1_000)
        #expect(log.status.dropped == 0)
    }

    @Test func aResumingWatcherGetsTheLinesAfterItsPositionThenTheLiveOnes() throws {
        let folder = try TemporaryDirectory("live-reports")
        defer { folder.remove() }
        let log = try ReportLog(configuration: .init(directory: folder.path("reports")), logger: Self.quiet)
        let live = LiveReports(log: log, heartbeatInterval: 60, logger: Self.quiet)
        try live.start()
        let probe = log.watch()
        for index in 0..<3 { log.record(ReportEvent(.launch, item: "i\(index)")) }
        var seen: [ReportWatcher.Line] = []
        while seen.count < 3, let lines = probe.next(timeout: 10) { seen += lines }
        #expect(seen.count == 3)
        let (stream, watcher) = live.watch(resuming: true)
        LocalReplay(store: log.store, after: seen[0].position, watcher: watcher).run()
        log.record(ReportEvent(.launch, item: "i3"))
        try eventually { stream.pendingBytes > 0 && Self.drainPeek(stream).contains("i3") }
        let text = Self.drain(stream)
        let ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
        #expect(ids.prefix(2) == seen[1...].map(\.position.description)[...], "ids are the store's positions")
        let items = text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])?["item"] as? String
        }
        #expect(items == ["i1", "i2", "i3"], "after its position, once each, then live")
        live.shutdown()
        log.shutdown()
    }

    /// Whether the queued text has arrived, without taking it (there is no peek: small streams).
    static func drainPeek(_ stream: ResponseStream) -> String {
        stream.state.withLock { state in state.pending.map { String(decoding: $0, as: UTF8.self) }.joined() }
    }
}

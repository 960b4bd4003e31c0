import Foundation
import TestSupport
import Testing

@testable import Reporting

@Suite struct ReportLogTests {
    @Test func concurrentRecordersGiveExactlyOneWholeLineEach() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        let existing = ReportEvent(.launch, layout: "list").jsonLine + "\n"
        try existing.write(toFile: path, atomically: false, encoding: .utf8)
        let log = ReportLog(path: path)
        DispatchQueue.concurrentPerform(iterations: 64) { client in
            for sequence in 0..<500 {
                log.record(.longSelected, layout: "grid", item: "m-\(sequence)", visitor: "client-\(client)",
                    properties: ["sequence": "\(sequence)", "padding": String(repeating: "x", count: client * 7)])
            }
        }
        log.shutdown()
        let lines = try fileLines(path)
        #expect(lines.count == 1 + 32_000)
        #expect(lines.first == String(existing.dropLast()))
        var lastSequence = [String: Int]()
        for line in lines.dropFirst() {
            let event = try ReportEvent(jsonLine: line)
            let client = try #require(event.visitor)
            let sequence = try #require(event.properties["sequence"].flatMap { Int($0) })
            #expect(sequence == (lastSequence[client] ?? -1) + 1, "lines of \(client) out of order")
            lastSequence[client] = sequence
        }
        #expect(lastSequence.count == 64 && lastSequence.values.allSatisfy { $0 == 499 })
        #expect(log.status == ReportLog.Status(written: 32_000, dropped: 0, pending: 0, lastError: nil))
    }

    @Test func tornLastLineIsSkippedAndNextWriteStartsOnANewLine() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        let whole = (0..<2).map { ReportEvent(.launch, item: "old-\($0)").jsonLine + "\n" }.joined()
        let torn = String(ReportEvent(.launch, item: "torn").jsonLine.prefix(40))
        try (whole + torn).write(toFile: path, atomically: false, encoding: .utf8)
        let reader = ReportReader(path: path)
        var items: [String?] = []
        try reader.forEachEvent { items.append($0.item) }
        #expect(items == ["old-0", "old-1"])
        #expect(reader.malformedLinesSkipped == 1)

        let log = ReportLog(path: path)
        for index in 0..<3 { log.record(.launch, item: "new-\(index)") }
        log.shutdown()
        let lines = try fileLines(path)
        #expect(lines.count == 6)
        #expect(lines[2] == torn)
        items = []
        try reader.forEachEvent { items.append($0.item) }
        #expect(items == ["old-0", "old-1", "new-0", "new-1", "new-2"])
        #expect(reader.malformedLinesSkipped == 1, "the same torn line is reported once")
    }

    @Test func missingDirectoryKeepsRecordingAndRecoversWhenItAppears() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("later")
        let path = missing.appendingPathComponent("reports.jsonl").path
        let log = ReportLog(configuration: .init(path: path, flushInterval: 0.01))
        for index in 0..<1000 { log.record(.launch, item: "\(index)") }
        #expect(await eventually(within: 5) { log.status.lastError != nil })
        #expect(log.status.lastError?.contains("No such file or directory") == true)
        #expect(log.status.pending == 1000 && log.status.written == 0)
        for index in 1000..<2000 { log.record(.launch, item: "\(index)") }

        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: false)
        #expect(await eventually(within: 5) { log.status.written == 2000 })
        #expect(log.status.lastError == nil)
        log.shutdown()
        let items = try fileLines(path).map { try ReportEvent(jsonLine: $0).item }
        #expect(items == (0..<2000).map { "\($0)" })
    }

    @Test func removedFileIsRecreated() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        let log = ReportLog(configuration: .init(path: path, flushInterval: 0.01))
        log.record(.launch, item: "before")
        #expect(await eventually(within: 5) { log.status.written == 1 })
        try FileManager.default.removeItem(atPath: path)
        log.record(.launch, item: "after")
        log.shutdown()
        #expect(try fileLines(path).map { try ReportEvent(jsonLine: $0).item } == ["after"])
    }

    @Test func fullBufferDropsTheOldestAndCountsThem() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let missing = directory.url.appendingPathComponent("later")
        let path = missing.appendingPathComponent("reports.jsonl").path
        let log = ReportLog(configuration: .init(path: path, bufferCapacity: 100, flushInterval: 0.01))
        for index in 0..<250 { log.record(.launch, item: "\(index)") }
        #expect(await eventually(within: 5) { log.status.dropped == 150 })
        #expect(log.status.pending == 100)
        try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: false)
        #expect(await eventually(within: 5) { log.status.written == 100 })
        log.shutdown()
        let items = try fileLines(path).map { try ReportEvent(jsonLine: $0).item }
        #expect(items == (150..<250).map { "\($0)" })
        #expect(log.status.dropped == 150)
    }

    @Test func unwritableAtShutdownLosesEventsCountedNotCrashes() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let log = ReportLog(path: directory.path("missing/reports.jsonl"))
        for index in 0..<10 { log.record(.launch, item: "\(index)") }
        log.shutdown()
        log.record(.launch, item: "late")
        log.shutdown()
        #expect(log.status.dropped == 11 && log.status.written == 0)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func diskFullKeepsEventsForRetryAndCountsThemLostAtShutdown() async throws {
        let log = ReportLog(configuration: .init(path: "/dev/full", flushInterval: 0.01))
        for index in 0..<100 { log.record(.launch, item: "\(index)") }
        #expect(await eventually(within: 5) { log.status.lastError?.contains("No space left on device") == true })
        #expect(log.status.pending == 100 && log.status.written == 0)
        log.shutdown()
        #expect(log.status == ReportLog.Status(written: 0, dropped: 100, pending: 0, lastError: log.status.lastError))
    }

    @Test func subscriberGetsTheLineWithinOneSecondAfterItIsInTheFile() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        let log = ReportLog(path: path)
        defer { log.shutdown() }
        let received = Collected<(line: String, inFile: Bool)>()
        let token = log.subscribe { line in
            let file = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            received.append((line, file.contains(line + "\n")))
        }
        #expect(log.subscriberCount == 1)
        let event = ReportEvent(.streamSelected, layout: "grid", item: "live-1", visitor: "v")
        log.record(event)
        #expect(await eventually(within: 1) { received.all.count == 1 })
        let first = try #require(received.all.first)
        #expect(try ReportEvent(jsonLine: first.line).item == "live-1")
        #expect(first.inFile)

        log.unsubscribe(token)
        log.record(.launch)
        #expect(await eventually(within: 5) { log.status.written == 2 })
        #expect(received.all.count == 1)
    }

    @Test func encodingMatchesWhatTheFileHolds() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let path = directory.path("reports.jsonl")
        let event = ReportEvent(.searchSubmitted, visitor: "v", properties: ["q": "\"quoted\"\n"])
        let log = ReportLog(path: path)
        log.record(event)
        log.shutdown()
        #expect(try fileLines(path) == [event.jsonLine])
    }
}

import Foundation
import ReportFixtures
import Testing
import TestSupport

@testable import Reporting

@Suite struct ReportStoreTests {
    /// A random log over two days: names, layouts, items, visitors, experiment tags new and legacy.
    static func randomLog(_ count: Int, seed: UInt64) -> [ReportEvent] {
        RandomReportLog.events(count, seed: seed, start: dayStart + 80_000_000)
    }

    /// The summary counted the obvious way, over whole minutes as the store does.
    static func naive(_ events: [ReportEvent], _ range: ReportRange, _ filter: ReportFilter) -> (Int, [String: Int], [String: Int]) {
        var byEvent: [String: Int] = [:]
        var byLayout: [String: Int] = [:]
        var total = 0
        for event in events where filter.matches(event) && range.contains(ms: ReportTimestamp.milliseconds(event.timestamp)) {
            total += 1
            byEvent[event.name.rawValue, default: 0] += 1
            if let layout = event.layout { byLayout[layout, default: 0] += 1 }
        }
        return (total, byEvent, byLayout)
    }

    @Test func rollupSummariesEqualAFullScanOfARandomLog() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let events = Self.randomLog(4000, seed: 7)
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.segmentBytes = 32 * 1024
        let log = try ReportLog(configuration: configuration)
        for event in events { log.record(event) }
        log.shutdown()
        // Read back through a fresh store: closed segments (some compressed), rollups from disk.
        let store = try ReportStore(directory: directory.path("reports"))
        #expect(store.catalog.segments.count > 5)
        let written = try storeLines(store).map { try ReportEvent(jsonLine: $0) }
        #expect(written == events)
        var random = SplitMix64(state: 11)
        let first = dayStart + 80_000_000
        for round in 0..<60 {
            let from = Bool.random(using: &random) ? nil : ReportTimestamp.date(milliseconds: first + Int64.random(in: 0...90_000_000, using: &random))
            let to = Bool.random(using: &random) ? nil : ReportTimestamp.date(milliseconds: first + Int64.random(in: 0...200_000_000, using: &random))
            let range = ReportRange(from: from, to: to)
            var filter = ReportFilter()
            if round % 4 == 1 { filter.event = ["launch", "long_selected", "nothing"].randomElement(using: &random) }
            if round % 3 == 1 { filter.layout = ["grid", "rows"].randomElement(using: &random) }
            if round % 5 == 2 { filter.item = "m\(Int.random(in: 0..<25, using: &random))" }
            if round % 7 == 3 { filter.visitor = "v\(Int.random(in: 0..<300, using: &random))" }
            let summary = store.summary(range, filter: filter)
            let (total, byEvent, byLayout) = Self.naive(events, range, filter)
            #expect(summary.total == total, "round \(round)")
            #expect(summary.byEvent == byEvent, "round \(round)")
            #expect(summary.byLayout == byLayout, "round \(round)")
            #expect(summary.series.reduce(0) { $0 + $1.count } == total, "round \(round)")
            // The visitors follow every filter, counted exactly (4,000 events: few enough).
            let visitors = Set(events.filter { filter.matches($0) && range.contains(ms: ReportTimestamp.milliseconds($0.timestamp)) }
                .compactMap(\.visitor))
            #expect(summary.visitorsExact && summary.visitorsCounted, "round \(round)")
            #expect(summary.visitors == visitors.count, "round \(round): \(filter)")
            #expect(summary.series.count <= 301)
            for point in summary.series.prefix(5) {
                let start = ReportTimestamp.milliseconds(point.start)
                let inBucket = events.filter { event in
                    let ms = ReportTimestamp.milliseconds(event.timestamp)
                    return ms >= start && ms < start + Int64(summary.bucket * 1000) && filter.matches(event) && range.contains(ms: ms)
                }
                #expect(point.count == inBucket.count, "round \(round)")
            }
        }
        // A filter whose visitors would take more lines than the budget to count leaves them
        // uncounted; without a filter the sketches estimate them.
        let uncounted = store.summary(filter: ReportFilter(event: "launch"), visitorLineBudget: 100)
        #expect(!uncounted.visitorsCounted && !uncounted.visitorsExact)
        #expect(uncounted.total == Self.naive(events, ReportRange(), ReportFilter(event: "launch")).0)
        #expect(store.summary(filter: ReportFilter(event: "launch"), visitorLineBudget: 4000).visitorsCounted)
        // Each closed segment has a visitor filter or index: a visitor's summary reads only the
        // segments that hold them (the visitor rounds above check it still counts every event).
        let filtered = store.catalog.segments.filter {
            !store.mayHold(visitor: "nobody-at-all", $0) || store.members(holding: "nobody-at-all", $0) == []
        }
        #expect(filtered.count >= store.catalog.segments.count - 1)
        // The live store (the writer's own rollups) agrees with the one read from disk.
        #expect(log.store.summary() == store.summary())
        // Closed segments hold items by the hour: whole hours, partial ones and single minutes agree.
        for (from, to) in [(0, 7_200_000), (1_234_567, 5_555_555), (3_600_000, 3_660_000), (59_999, 60_001), (0, 200_000_000)] {
            let range = ReportRange(from: ReportTimestamp.date(milliseconds: first + Int64(from)), to: ReportTimestamp.date(milliseconds: first + Int64(to)))
            for item in ["m3", "m11"] {
                let summary = store.summary(range, filter: ReportFilter(item: item))
                #expect(summary.total == Self.naive(events, range, ReportFilter(item: item)).0, "\(from)-\(to) \(item)")
                #expect(summary.series.isEmpty || summary.bucket >= 3600)
                #expect(summary.series.reduce(0) { $0 + $1.count } == summary.total)
            }
        }
        #expect(store.catalog.segments.allSatisfy { $0.hourlyItems != nil && $0.rollup.counts.isEmpty })
        // Per minute for a chart window, items included, at full grain.
        let window = ReportTimestamp.floorDiv(first, 60_000) + 700
        for filter in [ReportFilter(item: "m3"), ReportFilter(event: "launch"), ReportFilter()] {
            let perMinute = store.minuteCounts(from: window, to: window + 120, filter: filter)
            var expected: [Int64: Int] = [:]
            for event in events where filter.matches(event) {
                let minute = ReportTimestamp.floorDiv(ReportTimestamp.milliseconds(event.timestamp), 60_000)
                if minute >= window && minute < window + 120 { expected[minute, default: 0] += 1 }
            }
            #expect(perMinute.filter { $0.value > 0 } == expected)
        }
        // Visitors: a HyperLogLog estimate within a few percent.
        let distinct = Set(events.compactMap(\.visitor)).count
        #expect(abs(store.summary().visitors - distinct) <= distinct / 20 + 1)
        // Experiments, by group: views by layout and selections.
        let experiments = store.experiments()
        for experiment in experiments {
            for group in experiment.groups {
                func inGroup(_ event: ReportEvent) -> Bool {
                    event.properties["experiment.\(experiment.name)"] == group.group
                        || (event.properties["experiment"] == experiment.name && event.properties["group"] == group.group
                            && event.properties["experiment.\(experiment.name)"] == nil)
                }
                let views = events.filter { inGroup($0) && $0.name == .launch }
                let selections = events.filter { inGroup($0) && [.longSelected, .shortSelected, .streamSelected].contains($0.name) }
                #expect(group.views == views.count)
                #expect(group.selections == selections.count)
                #expect(group.days.reduce(0) { $0 + $1.views } == views.count)
                var layouts: [String: Int] = [:]
                for view in views { if let layout = view.layout { layouts[layout, default: 0] += 1 } }
                #expect(group.layouts == layouts)
            }
        }
        #expect(experiments.map(\.name) == ["color", "hero"])
        #expect(experiments.last?.groups.map(\.group) == ["a", "b"])
    }

    @Test func theBackwardReaderPagesNewestFirstPastTornAndMalformedLines() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let reports = directory.path("reports")
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        func line(_ index: Int) -> String { event(at: dayStart + Int64(index) * 1000, item: "i\(index)").jsonLine }
        // An older segment compressed, a newer one plain with a malformed line and a torn tail.
        let older = (0..<40).map(line).joined(separator: "\n") + "\n"
        try older.write(toFile: reports + "/older.jsonl", atomically: false, encoding: .utf8)
        // Small gzip members, with their index: read backwards a member at a time.
        let index = try #require(SegmentGzip.compress(reports + "/older.jsonl", to: reports + "/events-20261121T000000.000Z.jsonl.gz", memberBytes: 500)).index
        #expect(index.members.count > 5)
        #expect(RollupFile.writeAtomically(index.encode(), to: reports + "/events-20261121T000000.000Z.gzi", sync: false))
        try FileManager.default.removeItem(atPath: reports + "/older.jsonl")
        let newer = (40..<60).map(line).joined(separator: "\n") + "\n{\"timestamp\":\"broken\n" + (60..<80).map(line).joined(separator: "\n")
            + "\n" + #"{"timestamp":"2026-11-21T00:01:20.000Z","ev"#
        try newer.write(toFile: reports + "/events-20261121T000040.000Z.jsonl", atomically: false, encoding: .utf8)
        let store = try ReportStore(directory: reports)
        #expect(store.catalog.segments.first.flatMap { store.catalog.index($0) } != nil)
        var seen: [String] = []
        var before: ReportPosition?
        var pages = 0
        repeat {
            let page = store.events(before: before, limit: 7)
            seen += page.events.map { $0.item ?? "" }
            before = page.next.flatMap { ReportPosition($0.description) }  // through its text form
            pages += 1
        } while before != nil && pages < 50
        #expect(seen == (0..<80).reversed().map { "i\($0)" })
        // A filter and a tiny work budget: pages may come back short, but going on finds them all.
        var odd: [String] = []
        before = nil
        pages = 0
        repeat {
            let page = store.events(matching: ReportFilter(item: "i7"), before: before, limit: 5, budget: 300)
            odd += page.events.map { $0.item ?? "" }
            before = page.next
            pages += 1
        } while before != nil && pages < 500
        #expect(odd == ["i7"])
        // Lines since a time inside the compressed segment start at the right member.
        let since = storeLines(ReportStoreView(store: store, since: dayStart + 17_000))
        #expect(since.compactMap { try? ReportEvent(jsonLine: $0).item } == (17..<80).map { "i\($0)" })
        #expect(store.lineStart(in: store.catalog.segments[0], atOrAfter: dayStart + 30_000) > 0)
        // A range stops the reading at its start.
        let ranged = store.events(range: ReportRange(from: ReportTimestamp.date(milliseconds: dayStart + 60_000)), limit: 100)
        #expect(ranged.events.map { $0.item ?? "" } == (60..<80).reversed().map { "i\($0)" })
        #expect(ranged.next == nil)
    }

    @Test func linesSinceEveryTimeAndEveryBoundaryAreExactlyTheNewerLines() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.segmentBytes = 4096
        let log = try ReportLog(configuration: configuration)
        // Several events share a millisecond; gaps of up to a second.
        var ms = dayStart
        var times: [Int64] = []
        for index in 0..<400 {
            if index % 3 != 0 { ms += Int64(index % 997) }
            times.append(ms)
            log.record(event(at: ms, item: "i\(index)"))
        }
        log.shutdown()
        let reopened = try ReportLog(configuration: configuration)  // compresses the closed segments
        defer { reopened.shutdown() }
        let store = reopened.store
        let all = storeLines(store)
        #expect(all.count == 400)
        var probes = Set(times)
        for time in times { probes.insert(time - 1); probes.insert(time + 1) }
        for segment in store.catalog.segments { probes.insert(segment.startMs); probes.insert(segment.rollup.lastMs + 1) }
        for probe in probes.sorted() {
            let expected = zip(all, times).filter { $0.1 >= probe }.map(\.0)
            let got = storeLines(ReportStoreView(store: store, since: probe))
            #expect(got == expected, "since \(probe - dayStart)")
        }
    }

    @Test func importTakesTodaysSingleFileWithRollupsAndCheckFindsTamperedOnes() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let events = Self.randomLog(3000, seed: 3)
        // Today's single file: a line recorded a little late, a malformed line and a torn last line.
        var lines = events.map(\.jsonLine)
        lines.swapAt(100, 101)
        lines.insert("not json", at: 500)
        let file = directory.path("reports.jsonl")
        try (lines.joined(separator: "\n") + "\n" + #"{"timestamp":"2026-1"#).write(toFile: file, atomically: false, encoding: .utf8)
        let reports = directory.path("reports")
        let result = try ReportImport.run(files: [file], directory: reports, segmentBytes: 64 * 1024)
        #expect(result.imported == 3000)
        #expect(result.skipped == 2)
        #expect(result.raised <= 1)
        let store = try ReportStore(directory: reports)
        #expect(store.eventCount == 3000)
        #expect(listing(reports).contains { $0.hasSuffix(".jsonl.gz") })
        let imported = try storeLines(store).map { try ReportEvent(jsonLine: $0) }
        #expect(imported.map(\.request) == events.map(\.request))
        #expect(store.summary().total == 3000)
        #expect(store.summary().byEvent == Self.naive(events, ReportRange(), ReportFilter()).1)
        let clean = try ReportCheck.run(directory: reports)
        #expect(clean.problems.isEmpty && clean.segments > 1)

        // A rollup that counts one event too many, written whole (valid checksum): found.
        let segment = store.catalog.segments[1]
        let path = reports + "/" + SegmentName.rollupFile(segment.stamp)
        var wrong = try #require(RollupFile.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path))), interner: store.catalog.interner)).rollup
        let key = wrong.counts.keys.first!
        wrong.counts[key]! += 1
        #expect(RollupFile.writeAtomically(RollupFile.encode(wrong, closed: true, names: store.catalog.interner.names), to: path, sync: false))
        // And one torn.
        let torn = reports + "/" + SegmentName.rollupFile(store.catalog.segments[0].stamp)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: torn))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: torn))
        let checked = try ReportCheck.run(directory: reports)
        #expect(checked.problems.count == 2)
        #expect(checked.problems.contains { $0.reason.contains("differs") })
        #expect(checked.problems.contains { $0.reason.contains("torn") })
        // Reopened by a log, the torn one is rebuilt; the wrong one (closed, right size) is trusted
        // until checked: check is what finds it.
        let log = try ReportLog(directory: reports)
        log.shutdown()
        #expect(try ReportCheck.run(directory: reports).problems.count == 1)
    }

    @Test func recoveryCutsATornTailFinishesHalfCompressedSegmentsAndRebuildsRollups() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let reports = directory.path("reports")
        var configuration = ReportLog.Configuration(directory: reports)
        configuration.segmentBytes = 8192
        configuration.compress = false
        let log = try ReportLog(configuration: configuration)
        for index in 0..<300 { log.record(event(at: dayStart + Int64(index), item: "i\(index)", visitor: "v\(index % 9)")) }
        log.shutdown()
        let segments = log.store.catalog.segments
        #expect(segments.count >= 4)
        // What a kill -9 can leave: a torn last line, a compression cut short, rollups missing or
        // behind (the newest saved mid-segment), a plain copy beside a finished .gz.
        let newest = reports + "/" + SegmentName.dataFile(segments.last!.stamp, compressed: false)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: newest))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"timestamp":"2026-11-21T00:00:00.300Z","event":"lau"#.utf8))
        try handle.close()
        try Data("partial gzip".utf8).write(to: URL(fileURLWithPath: reports + "/" + SegmentName.dataFile(segments[0].stamp, compressed: true) + ".tmp"))
        try FileManager.default.removeItem(atPath: reports + "/" + SegmentName.rollupFile(segments[1].stamp))
        var behind = Rollup()
        behind.bytes = 0
        #expect(RollupFile.writeAtomically(RollupFile.encode(behind, closed: false, names: [""]), to: reports + "/" + SegmentName.rollupFile(segments.last!.stamp), sync: false))
        let plain2 = reports + "/" + SegmentName.dataFile(segments[2].stamp, compressed: false)
        #expect(nil != SegmentGzip.compress(plain2, to: reports + "/" + SegmentName.dataFile(segments[2].stamp, compressed: true)))

        var reopenedConfiguration = configuration
        reopenedConfiguration.compress = true
        let reopened = try ReportLog(configuration: reopenedConfiguration)
        reopened.record(event(at: dayStart + 1000, item: "after"))
        reopened.shutdown()
        let items = try storeLines(reopened.store).map { try ReportEvent(jsonLine: $0).item ?? "" }
        #expect(items == (0..<300).map { "i\($0)" } + ["after"])
        #expect(reopened.store.summary().total == 301)
        #expect(listing(reports).allSatisfy { !$0.hasSuffix(".tmp") })
        #expect(try ReportCheck.run(directory: reports).problems.isEmpty)
        // Every closed segment has its visitor filter again, those rebuilt included.
        let data = listing(reports).filter { $0.contains(".jsonl") }.count
        #expect(listing(reports).filter { $0.hasSuffix(".visitors") }.count == data)
        #expect(reopened.store.summary(filter: ReportFilter(visitor: "v3")).total == (0..<300).filter { $0 % 9 == 3 }.count)
    }

    @Test func checkFindsAVisitorFilterThatWouldHideAVisitor() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let reports = directory.path("reports")
        let log = try ReportLog(directory: reports)
        for index in 0..<50 { log.record(event(at: dayStart + Int64(index), visitor: "v\(index)")) }
        log.shutdown()
        #expect(try ReportCheck.run(directory: reports).problems.isEmpty)
        let stamp = try #require(log.store.catalog.segments.first?.stamp)
        #expect(RollupFile.writeAtomically(VisitorFilter().encode(), to: log.store.catalog.visitorsPath(stamp), sync: false))
        let checked = try ReportCheck.run(directory: reports)
        #expect(checked.problems.map(\.reason) == ["visitor filter misses visitors of the segment"])
    }

    @Test func killedMidWriteAndMidCloseNoAcknowledgedLineIsLostNorWrittenTwice() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let reports = directory.path("reports")
        let harness = ServerProcess.executable.deletingLastPathComponent().appendingPathComponent("report-harness")
        try #require(FileManager.default.isExecutableFile(atPath: harness.path), "build the report-harness target")
        var acknowledged = Set<String>()
        for round in 0..<4 {
            let process = Process()
            process.executableURL = harness
            // Small segments: closes (and compressions) are happening all the time.
            process.arguments = [reports, "16384", "r\(round)"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            var received = Data()
            let wanted = 2000 + round * 1500
            while received.count(of: 10) < wanted {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
            }
            kill(process.processIdentifier, SIGKILL)
            received.append(pipe.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            var text = String(decoding: received, as: UTF8.self)
            if !text.hasSuffix("\n"), let last = text.lastIndex(of: "\n") { text = String(text[...last]) }
            acknowledged.formUnion(text.split(separator: "\n").map(String.init))
        }
        #expect(acknowledged.count >= 2000)
        let log = try ReportLog(directory: reports)  // repairs what the last kill left
        log.shutdown()
        let requests = try storeLines(log.store).map { try ReportEvent(jsonLine: $0).request ?? "" }
        #expect(Set(requests).count == requests.count, "no line twice")
        let missing = acknowledged.subtracting(requests)
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(5))")
        #expect(log.store.summary().total == requests.count)
        #expect(try ReportCheck.run(directory: reports).problems.isEmpty)
    }
}

/// `lines(since:)` from epoch milliseconds, for the boundary test.
struct ReportStoreView {
    let store: ReportStore
    let since: Int64
}

func storeLines(_ view: ReportStoreView) -> [String] {
    var text = String(decoding: Array(view.store.lines(since: ReportTimestamp.date(milliseconds: view.since)).joined()), as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

extension Data {
    func count(of byte: UInt8) -> Int { reduce(0) { $0 + ($1 == byte ? 1 : 0) } }
}

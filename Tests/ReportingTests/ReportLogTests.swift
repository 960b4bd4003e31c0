import Basics
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Reporting

@Suite struct ReportLogTests {
    @Test func concurrentRecordersGiveExactlyOneWholeLineEachAndAreToldWhenWritten() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let log = try ReportLog(directory: directory.path("reports"))
        let acknowledged = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 {
                let item = "t\(thread)-\(index)"
                log.record(ReportEvent(.longSelected, item: item)) { written in
                    if written { acknowledged.append(item) }
                }
            }
        }
        log.shutdown()
        let items = try storeLines(log.store).map { try ReportEvent(jsonLine: $0).item ?? "" }
        #expect(items.count == 2000)
        #expect(Set(items).count == 2000)
        #expect(Set(acknowledged.all) == Set(items))
        // Times never go back, whatever order the threads recorded in.
        let times = try storeLines(log.store).map { try ReportEvent(jsonLine: $0).timestamp }
        #expect(times == times.sorted())
    }

    @Test func segmentsCloseAtTheSizeAndAtEachUTCDay() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.segmentBytes = 4096
        configuration.compress = false
        let log = try ReportLog(configuration: configuration)
        // 100 lines of about 90 bytes on one day, then 10 on the next.
        for index in 0..<100 { log.record(event(at: dayStart + Int64(index) * 1000, item: "i\(index)")) }
        for index in 0..<10 { log.record(event(at: dayStart + 86_400_000 + Int64(index), item: "n\(index)")) }
        log.shutdown()
        let files = listing(directory.path("reports")).filter { $0.hasSuffix(".jsonl") }
        #expect(files.first == "events-20261121T000000.000Z.jsonl")
        #expect(files.last == "events-20261122T000000.000Z.jsonl")
        for file in files {
            let size = SegmentDirectory.fileSize(directory.path("reports/" + file))!
            #expect(size <= 4096)
        }
        #expect(files.count >= 3)
        let segments = log.store.catalog.segments
        for (older, newer) in zip(segments, segments.dropFirst()) { #expect(older.rollup.lastMs <= newer.rollup.firstMs) }
        // Each day in its own segments.
        let days = segments.map { ReportTimestamp.floorDiv($0.rollup.firstMs, 86_400_000) == ReportTimestamp.floorDiv($0.rollup.lastMs, 86_400_000) }
        #expect(days.allSatisfy { $0 })
        #expect(storeLines(log.store).count == 110)
    }

    @Test func closedSegmentsAreGzippedAndReadBackInOrder() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.segmentBytes = 8192
        let log = try ReportLog(configuration: configuration)
        for index in 0..<500 { log.record(event(at: dayStart + Int64(index), item: "i\(index)")) }
        log.shutdown()
        // The last segment is compressed at the next start.
        let reopened = try ReportLog(configuration: configuration)
        try await eventually(timeout: 10) { listing(directory.path("reports")).allSatisfy { !$0.hasSuffix(".jsonl") } }
        let compressed = listing(directory.path("reports")).filter { $0.hasSuffix(".jsonl.gz") }
        #expect(compressed.count > 3)
        let items = try storeLines(reopened.store).map { try ReportEvent(jsonLine: $0).item ?? "" }
        #expect(items == (0..<500).map { "i\($0)" })
        reopened.shutdown()
    }

    @Test func belowTheFreeSpaceFloorEventsAreDroppedCountedAndWritingResumes() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let full = Atomic<Bool>(true)
        var configuration = ReportLog.Configuration(directory: directory.path("reports"), flushInterval: 0.01)
        configuration.minimumFree = .bytes(1 << 20)
        // Looked at on every flush: the event after the space returns is written, no waiting.
        configuration.freeSpaceCheckInterval = 0
        configuration.freeSpace = { _ in full.load(ordering: .relaxed) ? (1000, 1 << 30) : (1 << 30, 1 << 30) }
        let log = try ReportLog(configuration: configuration)
        let refused = Collected<Bool>()
        for index in 0..<10 { log.record(event(at: dayStart + Int64(index), item: "lost\(index)")) { refused.append($0) } }
        try await eventually(timeout: 5) { log.dropped == 10 }
        #expect(refused.all == Array(repeating: false, count: 10))
        #expect(log.store.summary().dropped == 10)
        full.store(false, ordering: .relaxed)
        log.record(event(at: dayStart + 100, item: "kept"))
        log.shutdown()
        #expect(try storeLines(log.store).map { try ReportEvent(jsonLine: $0).item } == ["kept"])
        #expect(log.dropped == 10)
    }

    @Test func aFullDiskKeepsEventsForRetryCutsTornWritesAndCountsWhatOverflows() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        // The disk fills after 300 bytes of the first write: half a line goes out, then ENOSPC.
        let full = Atomic<Bool>(true)
        let budget = Atomic<Int>(300)
        var configuration = ReportLog.Configuration(directory: directory.path("reports"), bufferCapacity: 50, flushInterval: 0.01)
        configuration.writeBytes = { fd, bytes in
            guard full.load(ordering: .relaxed) else { return FileIO.writeAll(fd, bytes) }
            let allowed = min(bytes.count, budget.exchange(0, ordering: .relaxed))
            let written = allowed > 0 ? FileIO.writeAll(fd, UnsafeRawBufferPointer(rebasing: bytes[..<allowed])).count : 0
            return (written, ENOSPC)
        }
        let log = try ReportLog(configuration: configuration)
        let told = Collected<Bool>()
        for index in 0..<10 { log.record(event(at: dayStart + Int64(index), item: "e\(index)")) { told.append($0) } }
        try await eventually(timeout: 5) { log.status.lastError?.contains("No space left") == true }
        // 70 more with nothing writable, into a buffer of 50: 50 wait, the oldest others are dropped.
        for index in 10..<80 { log.record(event(at: dayStart + Int64(index), item: "e\(index)")) { told.append($0) } }
        try await eventually(timeout: 5) { log.status.pending == 50 }
        full.store(false, ordering: .relaxed)
        try await eventually(timeout: 5) { log.status.pending == 0 }
        log.shutdown()
        // Whole lines only (a torn one would not parse), none twice: those written before the disk
        // filled, then the 50 kept; the rest dropped, counted and told.
        let items = try storeLines(log.store).map { try ReportEvent(jsonLine: $0).item ?? "" }
        let early = items.prefix { Int($0.dropFirst())! < 30 }
        #expect(!early.isEmpty && early.count < 5)
        #expect(items == Array(early) + (30..<80).map { "e\($0)" })
        #expect(early == ArraySlice((0..<early.count).map { "e\($0)" }))
        #expect(log.dropped == 30 - early.count)
        #expect(told.all.filter { $0 }.count == items.count)
        #expect(told.all.filter { !$0 }.count == log.dropped)
        #expect(log.store.summary().total == items.count)
    }

    @Test func retentionDeletesTheOldestClosedSegmentsByAgeAndByTotalNeverTheActiveOne() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.compress = false
        configuration.retention = 2 * 86_400
        configuration.now = { ReportTimestamp.date(milliseconds: dayStart + 5 * 86_400_000) }
        // Days 0…5: days 0, 1 and 2 are older than two days at day 5 noon.
        let log = try ReportLog(configuration: configuration)
        for day in 0..<6 { log.record(event(at: dayStart + Int64(day) * 86_400_000 + 43_200_000, item: "d\(day)")) }
        try await eventually(timeout: 10) {
            (try? storeLines(log.store).map { try ReportEvent(jsonLine: $0).item ?? "" }) == ["d3", "d4", "d5"]
        }
        #expect(listing(directory.path("reports")).filter { $0.hasSuffix(".jsonl") }.count == 3)
        log.shutdown()

        // By total: a limit below two segments keeps the newest (active) one only.
        var bySize = ReportLog.Configuration(directory: directory.path("by-size"))
        bySize.compress = false
        bySize.segmentBytes = 2048
        bySize.maxBytes = 3000
        let sized = try ReportLog(configuration: bySize)
        for index in 0..<200 { sized.record(event(at: dayStart + Int64(index), item: "s\(index)")) }
        sized.shutdown()
        let kept = listing(directory.path("by-size")).filter { $0.hasSuffix(".jsonl") }
        let total = kept.reduce(Int64(0)) { $0 + SegmentDirectory.fileSize(directory.path("by-size/" + $1))! }
        #expect(total <= 3000)
        let items = try storeLines(sized.store).map { try ReportEvent(jsonLine: $0).item ?? "" }
        #expect(items.last == "s199")
    }

    @Test func ageNeverDeletesASegmentTheShipperHasNotShippedButTheSizeCapDoesAndCountsIt() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        // Shipped up to (not including) day 1's segment.
        let shippedBefore = Mutex<String>("")
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.compress = false
        configuration.retention = 2 * 86_400
        configuration.now = { ReportTimestamp.date(milliseconds: dayStart + 5 * 86_400_000) }
        configuration.mayDelete = { name in name < shippedBefore.withLock { $0 } }
        let log = try ReportLog(configuration: configuration)
        for day in 0..<6 { log.record(event(at: dayStart + Int64(day) * 86_400_000 + 43_200_000, item: "d\(day)")) }
        log.shutdown()
        let segments = listing(directory.path("reports")).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(segments.count == 6)
        shippedBefore.withLock { $0 = segments[1] }
        let reopened = try ReportLog(configuration: configuration)
        try await eventually(timeout: 10) { listing(directory.path("reports")).filter { $0.hasSuffix(".jsonl") }.count == 5 }
        // Shutdown finishes the retention pass under way: nothing more is deleted after it.
        reopened.shutdown()
        #expect(listing(directory.path("reports")).filter { $0.hasSuffix(".jsonl") }.sorted() == Array(segments.dropFirst()))
        #expect(reopened.unshippedDeleted == 0)

        // The size cap cannot wait: it deletes, and counts what the database never got.
        var capped = configuration
        capped.retention = nil
        capped.maxBytes = 1
        let sized = try ReportLog(configuration: capped)
        try await eventually(timeout: 10) { sized.unshippedDeleted >= 4 }
        sized.shutdown()
    }

    @Test func stalledWatchersAreCutAndTheLogLosesNothing() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let log = try ReportLog(directory: directory.path("reports"))
        let stalled = (0..<200).map { _ in log.watch(capacity: 16) }
        let reader = log.watch(capacity: 100_000)
        for index in 0..<5000 { log.record(event(at: dayStart + Int64(index), item: "w\(index)")) }
        log.shutdown()
        #expect(storeLines(log.store).count == 5000)
        #expect(log.dropped == 0)
        #expect(stalled.allSatisfy { $0.wasCut })
        #expect(log.watcherCount == 1)
        let seen = (reader.take() ?? []).compactMap { try? ReportEvent(jsonLine: $0.text).item }
        #expect(seen == (0..<5000).map { "w\($0)" })
        // A cut watcher ends after the lines it had.
        #expect(stalled[0].take()?.count ?? 0 <= 16)
        #expect(stalled[0].take() == nil)
    }

    @Test func aStalledMirrorDropsAndCountsWithoutBlocking() throws {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let mirror = try OutputMirror(fd: fds[1], capacity: 1 << 16, logger: .init(label: "test"))
        let line = Array(repeating: UInt8(ascii: "x"), count: 99) + [10]
        for _ in 0..<10_000 { line.withUnsafeBytes { mirror.offer($0) } }
        // Nobody reads: the pipe (64 KiB) and the buffer fill, the rest is dropped and counted.
        mirror.shutdown(timeout: 0.2)
        #expect(mirror.dropped > 5000)
    }

    @Test func anOldSingleFileLogIsRefusedNamingTheImportCommand() throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let file = directory.path("reports.jsonl")
        try "{}\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect {
            _ = try ReportLog(directory: file)
        } throws: { error in
            "\(error)".contains("dynamic-home reports import \(file) --report-log") && !"\(error)".contains("\n")
        }
    }
}

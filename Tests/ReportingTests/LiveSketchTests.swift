import Foundation
import Testing
import TestSupport

@testable import Reporting

/// The writer keeps the hour's visitor sketch across its flushes and hands it over only when a
/// register rose; what each segment's live rollup ends up with must still be exactly what a scan
/// of its file counts, and no segment may hold the visitors of the one before it.
@Suite struct LiveSketchTests {
    @Test func eachSegmentsLiveSketchesAreWhatItsFileHolds() throws {
        let directory = try TemporaryDirectory("live-sketch")
        defer { directory.remove() }
        var configuration = ReportLog.Configuration(directory: directory.path("reports"))
        configuration.segmentBytes = 8192
        configuration.compress = false
        let log = try ReportLog(configuration: configuration)
        // Batches written one by one (a flush each), visitors returning across batches and
        // segments, over two hours: the sketch is handed over many times, and segments close
        // in the middle of an hour.
        var visitor = 0
        for batch in 0..<40 {
            for index in 0..<12 {
                visitor = (visitor * 7 + batch + index) % 97
                log.record(event(at: dayStart + Int64(batch) * 180_000 + Int64(index), visitor: "v\(visitor)"))
            }
            let written = log.status.written
            log.record(event(at: dayStart + Int64(batch) * 180_000 + 20, visitor: "v\(batch)")) { _ in }
            try eventually { log.status.written > written + 12 }
        }
        log.shutdown()
        let segments = log.store.catalog.segments
        #expect(segments.count >= 3)
        for segment in segments {
            var visitors = VisitorFilter()
            let scanned = try SegmentDirectory.scan(log.store.catalog.path(stamp: segment.stamp, compressed: false),
                                                    compressed: false, interner: log.store.catalog.interner, visitors: &visitors)
            #expect(segment.rollup.sketches == scanned.sketches, "segment \(segment.stamp)")
            #expect(segment.rollup.lines == scanned.lines)
        }
    }
}

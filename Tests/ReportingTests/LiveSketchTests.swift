import Basics
import Foundation
import Testing
import TestSupport

@testable import Reporting

/// The writer keeps the hour's visitor sketches (overall and each experiment group's) across its
/// flushes and hands them over only when a register rose; what each segment's live rollup ends up with must still be exactly what a scan
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
        // Visitors in experiment groups too, their events by their parts and from templates: the
        // groups' sketches are kept across flushes as the hour's is.
        let groups = (0..<6).map { ["experiment.hero": $0 % 2 == 0 ? "a" : "b", "experiment.rows": ["x", "y", "z"][$0 % 3]] }
        let templates = groups.map { EventTemplate(.launch, layout: "grid", properties: $0) }
        var visitor = 0
        for batch in 0..<40 {
            for index in 0..<12 {
                visitor = (visitor * 7 + batch + index) % 97
                let ms = dayStart + Int64(batch) * 180_000 + Int64(index)
                let id = String(format: "%032x", visitor)
                switch index % 3 {
                case 0: log.record(event(at: ms, visitor: id))
                case 1: log.record(event(at: ms, visitor: id, properties: groups[visitor % 6]))
                default: log.record(templates[visitor % 6], visitor: VisitorID(id), request: nil,
                                    at: ReportTimestamp.date(milliseconds: ms))
                }
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
            // The groups' counts by day (a closed segment keeps them by hour and day only).
            func day(_ key: GroupKey) -> GroupKey {
                var key = key
                key.minute = SegmentEntry.start(of: key.minute, 1440)
                return key
            }
            var live: [GroupKey: Int] = [:], expected: [GroupKey: Int] = [:]
            for (key, count) in scanned.groups { expected[day(key), default: 0] += count }
            let minutes = scanned.groups.keys.map(\.minute)
            segment.forEachGroup(from: SegmentEntry.start(of: minutes.min()!, 1440),
                                 to: SegmentEntry.start(of: minutes.max()!, 1440) + 1440, grain: 1440, minutes: { [:] }) {
                live[day($0), default: 0] += $1
            }
            #expect(live == expected, "segment \(segment.stamp)")
            #expect(segment.rollup.lines == scanned.lines)
        }
    }
}

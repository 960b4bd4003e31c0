import Foundation
import Reporting
import TestSupport

extension ReportLog {
    /// Writes `events` into a new report log at `path`, in segments of `segmentBytes`, and shuts it
    /// down; with `compressed`, the closed segments are then compressed and indexed as the next
    /// start does.
    public static func write(_ events: [ReportEvent], to path: String, segmentBytes: Int64, compressed: Bool = false) throws {
        var configuration = ReportLog.Configuration(directory: path)
        configuration.segmentBytes = segmentBytes
        let log = try ReportLog(configuration: configuration)
        for event in events { log.record(event) }
        log.shutdown()
        guard compressed else { return }
        // Opening the log again compresses and indexes its closed segments; a shutdown drops the
        // compressions still queued, so it waits for them.
        let reopened = try ReportLog(configuration: ReportLog.Configuration(directory: path))
        defer { reopened.shutdown() }
        try eventually("the closed segments compressed and indexed", timeout: 120) {
            let names = try FileManager.default.contentsOfDirectory(atPath: path)
            let compressed = names.filter { $0.hasSuffix(".jsonl.gz") }
            return names.filter { $0.hasSuffix(".jsonl") }.count <= 1
                && compressed.allSatisfy { names.contains($0.dropLast(".jsonl.gz".count) + ".vix") }
        }
    }
}

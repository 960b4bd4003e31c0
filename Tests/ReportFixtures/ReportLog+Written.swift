import Reporting

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
        // Opening the log again compresses its closed segments; it is closed once that is done.
        if compressed { try ReportLog(configuration: ReportLog.Configuration(directory: path)).shutdown() }
    }
}

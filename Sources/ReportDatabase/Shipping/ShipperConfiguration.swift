#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the shipper is told at start.
public struct ShipperConfiguration: Sendable {
    /// `--report-database`: a libpq URL or key=value string.
    public var databaseURL: String
    /// `--instance`: the name every row from this server carries; its position is stored under it.
    public var instance: String
    /// `--report-log`: the segment directory (or single file) the shipper reads.
    public var reportLog: String
    /// The most lines one transaction ships.
    public var batchLines = 50_000
    /// How often the log is checked for new lines when nothing rang.
    public var pollInterval = 0.2
    /// How often, when caught up, the stored position is touched to say the data is complete.
    public var heartbeatInterval = 2.0
    /// The longest wait between attempts while the database is down, and while it refuses us.
    public var maxBackoff = 5.0
    public var refusedBackoff = 30.0
    /// How often a segment that could not be read is tried again (each try may inflate it from the start).
    public var unreadableRetry = 5.0
    /// The least time between two log lines about the same unreadable segment.
    public var unreadableLogInterval = 600.0
    /// How often the visitors' changes the shippers appended are folded into the experiment
    /// visitor rows and sums (`VisitorFold`): about how far the figures may be behind the events.
    /// nil: this instance leaves the folding to the others.
    public var foldInterval: Double? = 1.0
    /// The most batches of changes one fold takes.
    public var foldBatches = 16
    /// While the shipper catches up on a backlog, the longest a fold waits for `foldBatches`
    /// batches to gather (`VisitorFoldRunner`): how far the figures may fall behind the shipped
    /// events meanwhile.
    public var foldCatchUpInterval = 10.0
    /// Days of events the database keeps (whole daily partitions); nil keeps everything.
    public var retentionDays: Int?

    public init(databaseURL: String, instance: String, reportLog: String) {
        self.databaseURL = databaseURL
        self.instance = instance
        self.reportLog = reportLog
    }
}

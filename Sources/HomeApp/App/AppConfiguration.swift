#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// Where the app finds its files and what it is told at start. The command line fills it in;
/// tests point it at their own files.
public struct AppConfiguration: Sendable {
    /// The folder served under `/assets/`.
    public var publicFolder: String
    /// The content catalogue (default `Config/content.json` beside the public folder: never served).
    public var contentFile: String
    /// The feature toggles (default `Config/toggles.json` beside the public folder).
    public var togglesFile: String
    /// The report log's directory of segments.
    public var reportLog: String
    /// Also write each report line to standard output.
    public var reportToStandardOutput = false
    /// A segment is closed at this size.
    public var reportSegmentBytes: Int64 = 64 << 20
    /// fsync report lines before a `POST /report` is answered.
    public var reportFsync = false
    /// Delete closed segments older than this many seconds (nil: keep).
    public var reportRetention: TimeInterval?
    /// Delete the oldest closed segments while the log takes more than this (nil: no limit).
    public var reportMaxBytes: Int64?
    /// Below this much free space report events are dropped and counted.
    public var reportMinimumFree: ReportLog.FreeSpaceFloor = .fraction(0.05)
    /// Signs CSRF tokens; instances sharing it accept each other's forms. Nil: random per process.
    public var secret: String?
    /// How often the content and toggles files are checked for changes.
    public var reloadInterval: Double = 1
    /// The token every request for a report page must carry when set; unset, only requests made
    /// on this machine and not through a proxy may read them (`ReportsAccess`).
    public var reportToken: String?
    /// The fewest bytes a `secret` or `reportToken` may have: a shorter one is refused at start.
    public static let minimumSecretBytes = 16
    /// Seconds between heartbeat comments on `/reports/stream`.
    public var heartbeatInterval: Double = 15
    /// How long `POST /report` waits for its line to be written before answering 503.
    public var reportAcknowledgementTimeout: Duration = .seconds(10)
    /// Report requests served at once, off the server's threads (`--report-workers`).
    public var reportWorkers = 2
    /// Report requests that may wait for a worker; more get 503 (`--report-queue`).
    public var reportQueue = 32
    /// `POST /report` events a second per visitor, and the burst allowed; a rate of 0 is no limit.
    public var reportVisitorRate: Double = 5
    public var reportVisitorBurst = 50
    /// `POST /report` events a second per client address (many visitors may share one), and the burst.
    public var reportAddressRate: Double = 50
    public var reportAddressBurst = 500
    /// The shared report database (`--report-database`): the log is shipped there and the report
    /// pages count every instance. Nil: this instance's log alone.
    public var reportDatabase: String?
    /// This server's name in the report database (`--instance`).
    public var instance = "dynamic-home"
    /// Days of events the report database keeps; nil keeps everything.
    public var reportDatabaseRetention: Int?
    /// Visitors whose viewing (progress, My List) is held in memory, some 64 bytes each; the least
    /// recent are dropped, and looked up in the report log again when they come back.
    public var viewingVisitors = 1_000_000
    /// Seconds between computations of Trending now and Because you watched.
    public var playStatisticsInterval: Double = 60

    public init(publicFolder: String, contentFile: String? = nil, togglesFile: String? = nil,
                reportLog: String = "reports") {
        self.publicFolder = publicFolder
        let config = Self.configFolder(beside: publicFolder)
        self.contentFile = contentFile ?? config + "/content.json"
        self.togglesFile = togglesFile ?? config + "/toggles.json"
        self.reportLog = reportLog
    }

    /// `Config`, in the folder that holds the public folder: the files there are read, not served.
    public static func configFolder(beside publicFolder: String) -> String {
        URL(fileURLWithPath: publicFolder).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("Config").path
    }
}

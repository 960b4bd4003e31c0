/// Where the app finds its files and what it is told at start. The command line fills it in;
/// tests point it at their own files.
public struct AppConfiguration: Sendable {
    /// The folder served under `/assets/`.
    public var publicFolder: String
    /// The content catalogue (default `Public/content.json`).
    public var contentFile: String
    /// The feature toggles (default `Public/toggles.json`).
    public var togglesFile: String
    /// The JSON Lines report log, appended to.
    public var reportLog: String
    /// Also write each report line to standard output.
    public var reportToStandardOutput = false
    /// Signs CSRF tokens; instances sharing it accept each other's forms. Nil: random per process.
    public var secret: String?
    /// How often the content and toggles files are checked for changes.
    public var reloadInterval: Double = 1
    /// The address the server listens on: off loopback, the report pages need `reportToken`.
    public var host = "127.0.0.1"
    /// The token that opens the report pages when the server is reachable from other machines.
    public var reportToken: String?
    /// Seconds between heartbeat comments on `/reports/stream`.
    public var heartbeatInterval: Double = 15
    /// The shared report database (`--report-database`): the log is shipped there and the report
    /// pages count every instance. Nil: this instance's log alone.
    public var reportDatabase: String?
    /// This server's name in the report database (`--instance`).
    public var instance = "dynamic-home"
    /// Days of events the report database keeps; nil keeps everything.
    public var reportDatabaseRetention: Int?

    public init(publicFolder: String, contentFile: String? = nil, togglesFile: String? = nil,
                reportLog: String = "reports.jsonl") {
        self.publicFolder = publicFolder
        self.contentFile = contentFile ?? publicFolder + "/content.json"
        self.togglesFile = togglesFile ?? publicFolder + "/toggles.json"
        self.reportLog = reportLog
    }
}

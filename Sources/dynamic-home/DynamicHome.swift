import ArgumentParser
import Foundation
import Glibc
import HomeApp
import Logging
import MicroHTTP
import Reporting

@main
struct DynamicHome: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamic-home",
        abstract: "Serves the DynamicHomeScreen home screen as HTML.",
        subcommands: [ReportsCommand.self])

    @Option(help: "The address to listen on: an IP address or localhost.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: UInt16 = 8080

    @Option(help: "The folder of CSS, scripts, images, default content and toggles.")
    var `public` = "./Public"

    @Option(help: "The content catalogue (default: content.json in the public folder).")
    var content: String?

    @Option(help: "The feature toggles (default: toggles.json in the public folder).")
    var toggles: String?

    @Option(help: "The report log: a directory of JSON Lines segments, created if missing.")
    var reportLog = "reports"

    @Flag(help: "Also write every report line to standard output (lines are dropped, counted, if nobody reads).")
    var reportStdout = false

    @Option(help: "Close a report segment at this size (e.g. 64MiB).", transform: ByteSize.parse)
    var reportSegmentBytes: Int64 = 64 << 20

    @Flag(help: "fsync report lines before answering POST /report, for power loss.")
    var reportFsync = false

    @Option(help: "Delete closed report segments older than this (e.g. 30d, 12h; default: keep).", transform: Age.parse)
    var reportRetention: TimeInterval?

    @Option(help: "Delete the oldest closed report segments while the log takes more (e.g. 10GiB; default: no limit).", transform: ByteSize.parse)
    var reportMaxBytes: Int64?

    @Option(help: "Drop report events (counted) while free space is below this: a size or a percentage of the file system.",
            transform: ByteSize.parseFloor)
    var reportMinFree: ReportLog.FreeSpaceFloor = .fraction(0.05)

    @Option(help: "The secret that signs form tokens (default: $DYNAMIC_HOME_SECRET, else random per start).")
    var secret: String?

    @Option(help: "The token that opens the report pages when --host is not a loopback address (default: $DYNAMIC_HOME_REPORT_TOKEN).")
    var reportToken: String?

    @Option(help: "Worker threads (default: one per core).")
    var threads: Int?

    @Option(help: "Seconds an idle connection is kept open.")
    var connectionTimeout: UInt32 = 30

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("--threads must be between 1 and 256, not \(threads)")
        }
    }

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "dynamic-home")
        // Blocked before any thread starts, so the daemon's threads inherit the mask.
        let signals = SignalWaiter()
        // A reader of --report-stdout that goes away must not kill the server.
        signal(SIGPIPE, SIG_IGN)
        var appConfiguration = AppConfiguration(publicFolder: `public`, contentFile: content, togglesFile: toggles,
                                                reportLog: reportLog)
        appConfiguration.reportToStandardOutput = reportStdout
        appConfiguration.reportSegmentBytes = reportSegmentBytes
        appConfiguration.reportFsync = reportFsync
        appConfiguration.reportRetention = reportRetention
        appConfiguration.reportMaxBytes = reportMaxBytes
        appConfiguration.reportMinimumFree = reportMinFree
        appConfiguration.secret = secret ?? ProcessInfo.processInfo.environment["DYNAMIC_HOME_SECRET"]
        appConfiguration.host = host
        appConfiguration.reportToken = reportToken ?? ProcessInfo.processInfo.environment["DYNAMIC_HOME_REPORT_TOKEN"]
        let app = try HomeApplication(configuration: appConfiguration, logger: logger)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = host
        serverConfiguration.port = port
        serverConfiguration.connectionTimeout = connectionTimeout
        if let threads { serverConfiguration.threads = threads }
        serverConfiguration.errorPage = app.errorPage
        let server = Server(configuration: serverConfiguration, router: app.makeRouter(), logger: logger)
        try server.start()
        let shownHost = host.contains(":") ? "[\(host)]" : host
        logger.info("listening on http://\(shownHost):\(server.port ?? port)/")

        while true {
            let signal = signals.next()
            guard signal == SIGHUP else { break }
            logger.info("SIGHUP: reloading content and toggles")
            app.reload()
        }
        logger.info("shutting down")
        server.shutdown()
        app.shutdown()
        logger.info("stopped")
    }

    /// Errors end the program with one line on standard error, never a trace or the usage text.
    static func main() {
        // `reports …` is parsed on its own: from the root, the serving options (`--report-log`
        // among them) would take the subcommand's options of the same name.
        let arguments = Array(CommandLine.arguments.dropFirst())
        let reports = arguments.first == ReportsCommand.configuration.commandName
        let root: ParsableCommand.Type = reports ? ReportsCommand.self : DynamicHome.self
        do {
            var command = reports ? try ReportsCommand.parseAsRoot(Array(arguments.dropFirst())) : try parseAsRoot()
            try command.run()
        } catch {
            guard root.exitCode(for: error) != .success else { root.exit(withError: error) }
            let line = Array("dynamic-home: \(root.message(for: error))\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            Glibc.exit(root.exitCode(for: error).rawValue)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension ReportLog.FreeSpaceFloor: ExpressibleByArgument {
    public init?(argument: String) {
        guard let floor = try? ByteSize.parseFloor(argument) else { return nil }
        self = floor
    }
}

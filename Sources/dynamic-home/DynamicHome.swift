import ArgumentParser
import Basics
import Foundation
import Glibc
import HomeApp
import Logging
import MicroHTTP

@main
struct DynamicHome: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamic-home",
        abstract: "Serves the DynamicHomeScreen home screen as HTML.")

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

    @Option(help: "The JSON Lines report log; an existing file is appended to.")
    var reportLog = "reports.jsonl"

    @Flag(help: "Also write every report line to standard output.")
    var reportStdout = false

    @Option(help: "The secret that signs form tokens (default: $DYNAMIC_HOME_SECRET, else random per start).")
    var secret: String?

    @Option(help: "The token that opens the report pages when --host is not a loopback address (default: $DYNAMIC_HOME_REPORT_TOKEN).")
    var reportToken: String?

    @Option(help: "The shared report database, a PostgreSQL URL (default: $DYNAMIC_HOME_DATABASE_URL): the log is shipped there and the report pages count every instance.")
    var reportDatabase: String?

    @Option(help: "This server's name in the report database (default: the host name and port).")
    var instance: String?

    @Option(help: "Days of events the report database keeps (default: all).")
    var reportDatabaseRetention: Int?

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
        if let days = reportDatabaseRetention, days < 1 {
            throw ValidationError("--report-database-retention must be at least 1 day, not \(days)")
        }
    }

    func run() throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let environment = ProcessInfo.processInfo.environment
        let database = reportDatabase ?? environment["DYNAMIC_HOME_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        let signingSecret = secret ?? environment["DYNAMIC_HOME_SECRET"]
        // Behind a balancer a form may land on another instance: a random secret would refuse it.
        if database != nil, signingSecret == nil {
            throw ValidationError("--report-database needs --secret (or DYNAMIC_HOME_SECRET) shared by every instance, so a form from one is accepted by another")
        }
        let logger = Logger(label: "dynamic-home")
        // Blocked before any thread starts, so the daemon's threads inherit the mask.
        let signals = SignalWaiter()
        // A reader of --report-stdout that goes away must not kill the server.
        signal(SIGPIPE, SIG_IGN)
        var appConfiguration = AppConfiguration(publicFolder: `public`, contentFile: content, togglesFile: toggles,
                                                reportLog: reportLog)
        appConfiguration.reportToStandardOutput = reportStdout
        appConfiguration.secret = signingSecret
        appConfiguration.reportDatabase = database
        appConfiguration.instance = instance ?? "\(ProcessInfo.processInfo.hostName):\(port)"
        appConfiguration.reportDatabaseRetention = reportDatabaseRetention
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
        let services = ServiceGroup([app, server], logger: logger)
        try services.start()
        let shownHost = host.contains(":") ? "[\(host)]" : host
        logger.info("listening on http://\(shownHost):\(server.port ?? port)/")

        while true {
            let signal = signals.next()
            guard signal == SIGHUP else { break }
            logger.info("SIGHUP: reloading content and toggles")
            app.reload()
        }
        logger.info("shutting down")
        services.shutdown()
        logger.info("stopped")
    }

    /// Errors end the program with one line on standard error, never a trace or the usage text.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            let line = Array("dynamic-home: \(message(for: error))\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            Glibc.exit(exitCode(for: error).rawValue)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

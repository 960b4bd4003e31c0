import ArgumentParser
import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import HomeApp
import Logging
import MicroHTTP
import Reporting

/// `dynamic-home [serve]`: the server, the command run when no other is named.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serves the DynamicHomeScreen home screen as HTML (the default).")

    @Option(help: "The address to listen on: an IP address or localhost.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port to listen on, 0 to 65535; 0 picks a free one.")
    var port: FlagValue = 8080

    @Option(help: "The folder served under /assets/: CSS, scripts, images.")
    var `public` = "./Public"

    @Option(help: "The content catalogue (default: Config/content.json beside the public folder).")
    var content: String?

    @Option(help: "The feature toggles (default: Config/toggles.json beside the public folder).")
    var toggles: String?

    @Option(help: "The report log: a directory of JSON Lines segments, created if missing.")
    var reportLog = "reports"

    @Flag(help: "Also write every report line to standard output (lines are dropped, counted, if nobody reads; default: off).")
    var reportStdout = false

    @Option(parsing: .unconditional, help: "Close a report segment at this size, 4KiB to 1GiB.")
    var reportSegmentBytes: FlagValue = "64MiB"

    @Flag(help: "fsync report lines before answering POST /report, for power loss (default: off).")
    var reportFsync = false

    @Option(parsing: .unconditional, help: "Delete closed report segments older than this (e.g. 30d, 12h; default: keep).")
    var reportRetention: FlagValue?

    @Option(parsing: .unconditional,
            help: "Delete the oldest closed report segments while the log takes more, at least one segment (e.g. 10GiB; default: no limit).")
    var reportMaxBytes: FlagValue?

    @Option(parsing: .unconditional,
            help: "Drop report events (counted) while free space is below this: a size or a percentage of the file system below 100%.")
    var reportMinFree: FlagValue = "5%"

    @Option(help: "The secret that signs form tokens, at least 16 bytes (default: $DYNAMIC_HOME_SECRET, else random per start).")
    var secret: String?

    @Option(help: "The token every request for the report pages and /metrics must carry, at least 16 bytes (default: $DYNAMIC_HOME_REPORT_TOKEN). Without it they are open only to requests made on this machine, not through a proxy.")
    var reportToken: String?

    @Option(parsing: .unconditional, help: "Report requests served at once, off the threads that serve pages; 1 to 64.")
    var reportWorkers: FlagValue = 2

    @Option(parsing: .unconditional, help: "Seconds between two recomputes of Trending now and Because you watched (0.1 to 3600); the counts under them follow every start as it comes.")
    var playStatisticsInterval: FlagValue = 60

    @Option(parsing: .unconditional, help: "Report requests that may wait for a worker, 0 to 10000; more are answered 503 with Retry-After.")
    var reportQueue: FlagValue = 32

    @Option(parsing: .unconditional, help: "POST /report events, and the events pages write, a second per visitor; 0 turns the limit off.")
    var reportVisitorRate: FlagValue = 5

    @Option(parsing: .unconditional, help: "POST /report events a visitor may send at once before the rate applies; at least 1.")
    var reportVisitorBurst: FlagValue = 50

    @Option(parsing: .unconditional, help: "POST /report events, and the events pages write, a second per client address; 0 turns the limit off.")
    var reportAddressRate: FlagValue = 50

    @Option(parsing: .unconditional, help: "POST /report events an address may send at once before the rate applies; at least 1.")
    var reportAddressBurst: FlagValue = 500

    @Option(name: [.customLong("database"), .customLong("report-database")],
            help: "The shared database, a PostgreSQL URL (default: $DYNAMIC_HOME_DATABASE_URL): the report log is shipped there, the report pages count every instance, and the toggles' and catalogue's versions are shared by every instance. --report-database is its older name.")
    var reportDatabase: String?

    @Option(help: "This server's name in the report database (default: the host name and port).")
    var instance: String?

    @Option(parsing: .unconditional, help: "Days of events the report database keeps, at least 1 (default: all).")
    var reportDatabaseRetention: FlagValue?

    @Option(parsing: .upToNextOption,
            help: "Proxies (IP addresses) whose X-Forwarded-For and X-Forwarded-Proto are believed; behind HTTPS, cookies get Secure and responses HSTS (default: none).")
    var trustedProxy: [String] = []

    @Flag(inversion: .prefixedNo, help: "Count requests, latency and connections for GET /metrics.")
    var metrics = true

    @Option(parsing: .unconditional, help: "Worker threads, 1 to 256 (default: one per core).")
    var threads: FlagValue?

    @Option(parsing: .unconditional,
            help: "Seconds an idle connection is kept open, and the most a request head, then its body, may take; 1 to 86400.")
    var connectionTimeout: FlagValue = 30

    @Option(parsing: .unconditional, help: "Connections open at once, at least 1.")
    var connectionLimit: FlagValue = 1024

    @Option(parsing: .unconditional, help: "Connections one client address may hold open at once, below --connection-limit (0: no limit).")
    var perAddressLimit: FlagValue = 128

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func run() throws {
        // Every flag is checked before anything is loaded or logged.
        let settings = try ServeSettings(self)
        limitMallocArenas()
        let level = logLevel
        let limiter = LogRateLimiter()
        let startup = StartupLog()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            // Requests reach the log (paths, layouts, errors): escaped, cut and rate-limited.
            return startup.handler(wrapping: SafeLogHandler(wrapping: handler, limiter: limiter))
        }
        let logger = Logger(label: "dynamic-home")
        // Blocked before any thread starts, so the daemon's threads inherit the mask.
        let signals = SignalWaiter()
        // A reader of --report-stdout that goes away must not kill the server.
        signal(SIGPIPE, SIG_IGN)
        let (services, app): (StartOrder, HomeApplication)
        do {
            (services, app) = try start(settings, logger: logger)
        } catch {
            // The caller writes the error: that one line is all a failed start says.
            startup.discard()
            throw error
        }
        startup.release()
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

    /// Loads the app and starts listening: the services to stop, and the app to reload.
    private func start(_ settings: ServeSettings, logger: Logger) throws -> (StartOrder, HomeApplication) {
        let environment = ProcessInfo.processInfo.environment
        let database = reportDatabase ?? environment["DYNAMIC_HOME_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        let signingSecret = secret ?? environment["DYNAMIC_HOME_SECRET"]
        // Behind a balancer a form may land on another instance: a random secret would refuse it.
        if database != nil, signingSecret == nil {
            throw ValidationError("--database needs --secret (or DYNAMIC_HOME_SECRET) shared by every instance, so a form from one is accepted by another")
        }
        var appConfiguration = AppConfiguration(publicFolder: `public`, contentFile: content, togglesFile: toggles,
                                                reportLog: reportLog)
        appConfiguration.reportToStandardOutput = reportStdout
        appConfiguration.reportSegmentBytes = settings.reportSegmentBytes
        appConfiguration.reportFsync = reportFsync
        appConfiguration.reportRetention = settings.reportRetention
        appConfiguration.reportMaxBytes = settings.reportMaxBytes
        appConfiguration.reportMinimumFree = settings.reportMinFree
        appConfiguration.secret = signingSecret
        appConfiguration.reportDatabase = database
        appConfiguration.instance = instance ?? "\(ProcessInfo.processInfo.hostName):\(settings.port)"
        appConfiguration.reportDatabaseRetention = settings.reportDatabaseRetention
        appConfiguration.reportWorkers = settings.reportWorkers
        appConfiguration.playStatisticsInterval = settings.playStatisticsInterval
        appConfiguration.reportQueue = settings.reportQueue
        appConfiguration.reportVisitorRate = settings.reportVisitorRate
        appConfiguration.reportVisitorBurst = settings.reportVisitorBurst
        appConfiguration.reportAddressRate = settings.reportAddressRate
        appConfiguration.reportAddressBurst = settings.reportAddressBurst
        appConfiguration.reportToken = reportToken ?? environment["DYNAMIC_HOME_REPORT_TOKEN"]
        let app = try HomeApplication(configuration: appConfiguration, logger: logger)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = host
        serverConfiguration.port = settings.port
        serverConfiguration.connectionTimeout = settings.connectionTimeout
        serverConfiguration.connectionLimit = settings.connectionLimit
        serverConfiguration.perIPConnectionLimit = settings.perAddressLimit
        if let threads = settings.threads { serverConfiguration.threads = threads }
        serverConfiguration.trustedProxies = settings.trustedProxies
        serverConfiguration.metrics = metrics
        serverConfiguration.errorPage = app.errorPage
        serverConfiguration.bodyLimits = app.bodyLimits
        let server = Server(configuration: serverConfiguration, router: app.makeRouter(), logger: logger)
        app.attach(server)
        let services = StartOrder([app, server], logger: logger)
        try services.start()
        let shownHost = host.contains(":") ? "[\(host)]" : host
        logger.info("listening on http://\(shownHost):\(server.port ?? settings.port)/")
        return (services, app)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// glibc gives threads up to eight malloc arenas a core, each keeping what its threads freed: the
/// report workers' short-lived buffers left about 10 MiB resident that way. One arena a core (at
/// least two) keeps that down; set before any thread starts. `MALLOC_ARENA_MAX` still wins.
/// (`mallopt` is looked up: Swift's Glibc module leaves out `malloc.h`; `M_ARENA_MAX` is -8.)
private func limitMallocArenas() {
    guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil,
        let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
    else { return }
    let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    _ = mallopt(-8, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
}

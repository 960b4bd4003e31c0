import ArgumentParser
import Basics
import Foundation
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

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: UInt16 = 8080

    @Option(help: "The folder served under /assets/: CSS, scripts, images.")
    var `public` = "./Public"

    @Option(help: "The content catalogue (default: Config/content.json beside the public folder).")
    var content: String?

    @Option(help: "The feature toggles (default: Config/toggles.json beside the public folder).")
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

    @Option(help: "The secret that signs form tokens, at least 16 bytes (default: $DYNAMIC_HOME_SECRET, else random per start).")
    var secret: String?

    @Option(help: "The token every request for the report pages and /metrics must carry, at least 16 bytes (default: $DYNAMIC_HOME_REPORT_TOKEN). Without it they are open only to requests made on this machine, not through a proxy.")
    var reportToken: String?

    @Option(help: "Report requests served at once, off the threads that serve pages.")
    var reportWorkers = 2

    @Option(help: "Report requests that may wait for a worker; more are answered 503 with Retry-After.")
    var reportQueue = 32

    @Option(help: "POST /report events a second per visitor; 0 turns the limit off.")
    var reportVisitorRate: Double = 5

    @Option(help: "POST /report events a visitor may send at once before the rate applies.")
    var reportVisitorBurst = 50

    @Option(help: "POST /report events a second per client address; 0 turns the limit off.")
    var reportAddressRate: Double = 50

    @Option(help: "POST /report events an address may send at once before the rate applies.")
    var reportAddressBurst = 500

    @Option(name: [.customLong("database"), .customLong("report-database")],
            help: "The shared database, a PostgreSQL URL (default: $DYNAMIC_HOME_DATABASE_URL): the report log is shipped there, the report pages count every instance, and the toggles' and catalogue's versions are shared by every instance. --report-database is its older name.")
    var reportDatabase: String?

    @Option(help: "This server's name in the report database (default: the host name and port).")
    var instance: String?

    @Option(help: "Days of events the report database keeps (default: all).")
    var reportDatabaseRetention: Int?

    @Option(parsing: .upToNextOption,
            help: "Proxies (IP addresses) whose X-Forwarded-For and X-Forwarded-Proto are believed; behind HTTPS, cookies get Secure and responses HSTS.")
    var trustedProxy: [String] = []

    @Flag(inversion: .prefixedNo, help: "Count requests, latency and connections for GET /metrics.")
    var metrics = true

    @Option(help: "Worker threads (default: one per core).")
    var threads: Int?

    @Option(help: "Seconds an idle connection is kept open, and the most a request head, then its body, may take.")
    var connectionTimeout: UInt32 = 30

    @Option(help: "Connections open at once.")
    var connectionLimit: UInt32 = 1024

    @Option(help: "Connections one client address may hold open at once (0: no limit).")
    var perAddressLimit: UInt32 = 128

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        if let threads, !(1...256).contains(threads) {
            throw ValidationError("--threads must be between 1 and 256, not \(threads)")
        }
        if connectionLimit < 1 { throw ValidationError("--connection-limit must be at least 1") }
        if perAddressLimit >= connectionLimit {
            // Otherwise one address can hold every slot.
            throw ValidationError("--per-address-limit must be below --connection-limit (\(connectionLimit)), not \(perAddressLimit)")
        }
        do {
            _ = try TrustedProxies(trustedProxy)
        } catch {
            throw ValidationError("--trusted-proxy: \(error)")
        }
        if !(4096...(1 << 30)).contains(reportSegmentBytes) {
            // A compressed segment's index holds 32-bit offsets.
            throw ValidationError("--report-segment-bytes must be between 4KiB and 1GiB, not \(reportSegmentBytes)")
        }
        if let days = reportDatabaseRetention, days < 1 {
            throw ValidationError("--report-database-retention must be at least 1 day, not \(days)")
        }
        if !(1...64).contains(reportWorkers) {
            throw ValidationError("--report-workers must be between 1 and 64, not \(reportWorkers)")
        }
        for (name, rate) in [("--report-visitor-rate", reportVisitorRate), ("--report-address-rate", reportAddressRate)]
        where !(rate >= 0 && rate <= 1_000_000) {
            throw ValidationError("\(name) must be between 0 (no limit) and 1000000 events a second, not \(rate)")
        }
        for (name, burst) in [("--report-visitor-burst", reportVisitorBurst), ("--report-address-burst", reportAddressBurst)]
        where !(1...1_000_000).contains(burst) {
            throw ValidationError("\(name) must be between 1 and 1000000, not \(burst)")
        }
        if !(0...10_000).contains(reportQueue) {
            throw ValidationError("--report-queue must be between 0 and 10000, not \(reportQueue)")
        }
    }

    func run() throws {
        limitMallocArenas()
        let level = logLevel
        let limiter = LogRateLimiter()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            // Requests reach the log (paths, layouts, errors): escaped, cut and rate-limited.
            return SafeLogHandler(wrapping: handler, limiter: limiter)
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
        appConfiguration.reportSegmentBytes = reportSegmentBytes
        appConfiguration.reportFsync = reportFsync
        appConfiguration.reportRetention = reportRetention
        appConfiguration.reportMaxBytes = reportMaxBytes
        appConfiguration.reportMinimumFree = reportMinFree
        appConfiguration.secret = signingSecret
        appConfiguration.reportDatabase = database
        appConfiguration.instance = instance ?? "\(ProcessInfo.processInfo.hostName):\(port)"
        appConfiguration.reportDatabaseRetention = reportDatabaseRetention
        appConfiguration.reportWorkers = reportWorkers
        appConfiguration.reportQueue = reportQueue
        appConfiguration.reportVisitorRate = reportVisitorRate
        appConfiguration.reportVisitorBurst = reportVisitorBurst
        appConfiguration.reportAddressRate = reportAddressRate
        appConfiguration.reportAddressBurst = reportAddressBurst
        appConfiguration.reportToken = reportToken ?? ProcessInfo.processInfo.environment["DYNAMIC_HOME_REPORT_TOKEN"]
        let app = try HomeApplication(configuration: appConfiguration, logger: logger)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = host
        serverConfiguration.port = port
        serverConfiguration.connectionTimeout = connectionTimeout
        serverConfiguration.connectionLimit = connectionLimit
        serverConfiguration.perIPConnectionLimit = perAddressLimit
        if let threads { serverConfiguration.threads = threads }
        serverConfiguration.trustedProxies = try TrustedProxies(trustedProxy)
        serverConfiguration.metrics = metrics
        serverConfiguration.errorPage = app.errorPage
        serverConfiguration.bodyLimits = app.bodyLimits
        let server = Server(configuration: serverConfiguration, router: app.makeRouter(), logger: logger)
        app.attach(server)
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
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension ReportLog.FreeSpaceFloor: ExpressibleByArgument {
    public init?(argument: String) {
        guard let floor = try? ByteSize.parseFloor(argument) else { return nil }
        self = floor
    }
}

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

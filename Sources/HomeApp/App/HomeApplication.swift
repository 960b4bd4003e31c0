import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HomeLayouts
import Logging
import MicroHTTP
import ReportDatabase
import Reporting
import ScreenKit

/// The whole app: it loads what the configuration names and answers every route. As a service
/// it runs the content and toggles watchers and the report stream's heartbeat; shutting it down
/// stops them and then flushes the report log.
public final class HomeApplication: Startable {
    public let name = "home application"
    public let configuration: AppConfiguration
    let services: AppServices
    let assets: StaticFiles
    private let live: LiveReports
    private let acknowledgements: AcknowledgementDeadlines
    private let background: StartOrder
    private let reportsAccess: ReportsAccess
    private let metrics = MetricsRoute()
    /// Ships the log into the report database, when there is one.
    public let shipper: ReportShipper?
    private let reportPool: RequestPool
    private let adminPool: RequestPool
    private let compression: WorkPool
    private let eventRateLimit: EventRateLimit
    /// The toggles' versions: the history beside the report log, applies from `/admin`.
    private let toggleVersions: ToggleVersions
    /// The catalogue's versions, beside the toggles'.
    private let contentVersions: ContentVersions
    /// With a report database: installs the toggles' new versions as they are announced.
    private let configFollower: ConfigFollower?

    /// Loads everything the app serves; a missing or invalid file fails here, before listening,
    /// unless its history holds a version to start from (`FileRestore`).
    public init(configuration: AppConfiguration, factory: HomeFactory = .standard,
                logger: Logger = Logger(label: "dynamic-home")) throws {
        self.configuration = configuration
        precondition(!factory.names.isEmpty, "the home needs at least one layout")
        // An empty token opened the reports to anyone; a short secret lets tokens be computed offline.
        for (option, value) in [("--secret", configuration.secret), ("--report-token", configuration.reportToken)] {
            if let value, value.utf8.count < AppConfiguration.minimumSecretBytes {
                throw AppError.tooShort(option: option, bytes: value.utf8.count)
            }
        }
        // One worker: compressing is slow (brotli 11) but rare, once per page and file version.
        let compression = WorkPool(name: "compress", workers: 1, queueLimit: 256, logger: logger)
        self.compression = compression
        do {
            assets = try StaticFiles(folder: configuration.publicFolder, mountedAt: "/assets", compression: compression)
        } catch {
            throw AppError.publicFolder(error.description)
        }
        // With a database its numbering rules, so its versions are kept apart from this machine's own.
        let databaseConfig = configuration.reportDatabase.map { DatabaseConfigVersions(url: $0) }
        let historyFolder = configuration.reportLog + (databaseConfig == nil ? "/config-history/" : "/config-history/shared/")
        let loadContent = { () throws(ContentCatalogError) -> ContentStore in
            try ContentStore(contentsOf: URL(fileURLWithPath: configuration.contentFile),
                             publicDirectory: URL(fileURLWithPath: configuration.publicFolder),
                             pollInterval: configuration.reloadInterval, logger: logger)
        }
        let content: ContentStore
        var contentRestored: String?
        do {
            content = try loadContent()
        } catch {
            contentRestored = FileRestore.fromHistory(configuration.contentFile, folder: historyFolder + CatalogueDocument.names.kind,
                                                      kind: CatalogueDocument.names.kind, problem: error.description, logger: logger)
            guard contentRestored != nil, let restored = try? loadContent() else { throw AppError.content(error.description) }
            content = restored
        }
        let toggles: ToggleRouter
        var togglesRestored: String?
        do {
            toggles = try ToggleRouter(path: configuration.togglesFile, layouts: factory.names)
        } catch {
            togglesRestored = FileRestore.fromHistory(configuration.togglesFile, folder: historyFolder + TogglesDocument.names.kind,
                                                      kind: TogglesDocument.names.kind, problem: error.description, logger: logger)
            guard togglesRestored != nil, let restored = try? ToggleRouter(path: configuration.togglesFile, layouts: factory.names) else {
                throw AppError.toggles(error.description)
            }
            toggles = restored
        }
        for warning in toggles.toggles.interplayWarnings { logger.warning("toggles: \(warning)") }
        if let url = configuration.reportDatabase {
            var shipping = ShipperConfiguration(databaseURL: url, instance: configuration.instance,
                                                reportLog: configuration.reportLog)
            shipping.retentionDays = configuration.reportDatabaseRetention
            shipper = ReportShipper(configuration: shipping, logger: logger)
        } else {
            shipper = nil
        }
        var logConfiguration = ReportLog.Configuration(directory: configuration.reportLog,
                                                       mirrorToStandardOutput: configuration.reportToStandardOutput)
        logConfiguration.segmentBytes = configuration.reportSegmentBytes
        logConfiguration.fsync = configuration.reportFsync
        logConfiguration.retention = configuration.reportRetention
        logConfiguration.maxBytes = configuration.reportMaxBytes
        logConfiguration.minimumFree = configuration.reportMinimumFree
        if let shipper { logConfiguration.mayDelete = { [shipper] in shipper.mayDelete(segment: $0) } }
        let reportLog: ReportLog
        do {
            reportLog = try ReportLog(configuration: logConfiguration, logger: logger)
        } catch {
            throw AppError.reportLog("\(error)")
        }
        // The same rates for the events pages write as they are served, in buckets of their own:
        // reading the home never costs a visitor the beacons of their scrolling.
        let visitorLimit = EventRateLimit.Limit(rate: configuration.reportVisitorRate, burst: configuration.reportVisitorBurst)
        let addressLimit = EventRateLimit.Limit(rate: configuration.reportAddressRate, burst: configuration.reportAddressBurst)
        eventRateLimit = EventRateLimit(visitor: visitorLimit, address: addressLimit, logger: logger)
        let pageEventLimit = EventRateLimit(visitor: visitorLimit, address: addressLimit, logger: logger)
        let viewing = ViewingHistory(capacity: configuration.viewingVisitors)
        let databaseReports = configuration.reportDatabase.map { DatabaseReports(url: $0) }
        // Their own connection: a look-up or a rebuild never waits behind a report page's query.
        let viewingEvents = ViewingEvents(store: reportLog.store, database: configuration.reportDatabase.map { DatabaseReports(url: $0) },
                                          logger: logger)
        let viewingLookup = ViewingLookup(history: viewing, events: viewingEvents, logger: logger)
        let plays = PlayStatisticsTask(events: viewingEvents, interval: configuration.playStatisticsInterval, logger: logger)
        services = AppServices(content: content, toggles: toggles, reportLog: reportLog,
                               csrf: CSRFProtection(secret: configuration.secret), factory: factory,
                               homeItems: HomeItemsCache(), pages: PageCache(), assets: AssetLinks(files: assets),
                               compression: compression,
                               viewing: viewing,
                               plays: plays, viewingLookup: viewingLookup, logger: logger,
                               database: databaseReports,
                               shipper: shipper, eventLimit: pageEventLimit)
        live = LiveReports(log: reportLog, heartbeatInterval: configuration.heartbeatInterval,
                           database: configuration.reportDatabase, logger: logger)
        // Reports are CPU work that can wait a little; pages get the cores first.
        reportPool = RequestPool(WorkPool(name: "reports", workers: configuration.reportWorkers,
                                          queueLimit: configuration.reportQueue, niceness: 10, logger: logger),
                                 busyMessage: "The server is busy with other reports; try again in 1 s.")
        // An apply is a few milliseconds of work that every instance waits for; behind the report
        // pool's niceness, with the pages taking every core, it waited up to a second.
        adminPool = RequestPool(WorkPool(name: "admin", workers: 2, queueLimit: 32, logger: logger),
                                busyMessage: "The server is busy with other admin work; try again in 1 s.")
        do {
            let versions = try ToggleVersions(TogglesDocument(router: toggles), folder: historyFolder + TogglesDocument.names.kind,
                                              log: reportLog, logger: logger, database: databaseConfig, instance: configuration.instance,
                                              restored: togglesRestored)
            toggleVersions = versions
            let catalogue = try ContentVersions(CatalogueDocument(store: content), folder: historyFolder + CatalogueDocument.names.kind,
                                                log: reportLog, logger: logger, database: databaseConfig, instance: configuration.instance,
                                                restored: contentRestored)
            contentVersions = catalogue
            metrics.attach(versions, catalogue)
            configFollower = databaseConfig.map { ConfigFollower([versions, catalogue], database: $0, logger: logger) }
        } catch {
            throw AppError.reportLog("\(error)")
        }
        let signOuts = SignOuts(directory: configuration.reportLog, database: services.database, logger: logger)
        reportsAccess = ReportsAccess(token: configuration.reportToken, csrf: services.csrf, signOuts: signOuts)
        let togglesWatcher = PeriodicTask(name: "toggles", every: configuration.reloadInterval) { [services, toggleVersions, contentVersions] in
            Self.reloadToggles(services, onlyIfChanged: true)
            toggleVersions.checkFile()
            toggleVersions.stepRamps()
            contentVersions.checkFile()
            if services.assets.refresh() { services.logger.info("assets changed; pages link the new versions") }
        }
        acknowledgements = AcknowledgementDeadlines(timeout: configuration.reportAcknowledgementTimeout)
        let viewingLoader = ViewingHistoryLoader(history: services.viewing, events: viewingEvents, logger: logger)
        let viewingFeed = configuration.reportDatabase.map {
            DatabaseViewingFeed(url: $0, instance: configuration.instance, history: viewing, plays: plays, logger: logger)
        }
        background = StartOrder([content, togglesWatcher, live, acknowledgements, signOuts, viewingLoader, viewingLookup,
                                 services.plays] + (viewingFeed.map { [$0] } ?? [])
                                  + (shipper.map { [$0] } ?? []) + (configFollower.map { [$0] } ?? []), logger: logger)
    }

    /// Every route of the app.
    public func makeRouter() -> Router {
        var router = Router()
        let home = HomeRoutes(services: services)
        home.register(in: &router)
        SceneRoutes(services: services).register(in: &router)
        SearchRoutes(services: services, home: home).register(in: &router)
        OnboardingRoutes(services: services).register(in: &router)
        QARoutes(services: services).register(in: &router)
        WatchRoutes(services: services, limit: eventRateLimit).register(in: &router)
        SwipeBeacon(services: services, limit: eventRateLimit, deadlines: acknowledgements).register(in: &router)
        // Every page of the report log (`/reports*`), `/metrics` and `/admin` behind one access check;
        // not the sign-in. The JSON ones answer every error, the check's too, as JSON.
        let splitChanges = SplitChanges(history: toggleVersions.history)
        router.group([JSONErrors.middleware(logger: services.logger), reportsAccess.middleware]) { reports in
            ReportsRoutes(services: services, access: reportsAccess, live: live, pool: reportPool,
                         limit: eventRateLimit, splitChanges: splitChanges).register(in: &reports)
            ExperimentReportRoutes(services: services, access: reportsAccess, pool: reportPool, splitChanges: splitChanges).register(in: &reports)
            metrics.register(in: &reports, services: services, pool: reportPool)
            AdminRoutes(services: services, versions: toggleVersions, content: contentVersions, access: reportsAccess,
                        pool: adminPool, splitChanges: splitChanges).register(in: &reports)
        }
        ReportsSignIn(services: services, access: reportsAccess, pool: reportPool).register(in: &router)
        router.get("/healthz") { _ in .text("ok") }
        router.get("/assets/*path") { [assets] request in
            try assets.response(for: request.pathSegments.dropFirst(), headers: request.headers)
        }
        return router
    }

    /// Paths whose request body may be larger than the server's default: the catalogue upload.
    public var bodyLimits: [String: Int] { [AdminContent.path: AdminContent.bodyLimit] }

    /// Gives `/metrics` the server's counters (requests, latency, connections).
    public func attach(_ server: Server) { metrics.attach(server) }

    /// Every 4xx and 5xx page, drawn like the rest of the app.
    public var errorPage: ErrorPage {
        ErrorPage { [services] error in
            // The report URLs a script reads answer every error as JSON, those refused before a handler too.
            if let path = error.path, JSONErrors.answersJSON(path) {
                return JSONErrors.answer(error.status, error.message, requestID: error.requestID)
            }
            if let request = error.request { Self.reportErrorShown(error.status, request: request, services: services) }
            var model = ErrorScreenModel(status: error.status, message: error.message, requestID: error.requestID)
            // Refused for want of a sign-in: the way to it, coming back here.
            if error.status == .unauthorized, let request = error.request {
                model.links = [("Sign in", ReportsSignIn.link(for: request))]
            } else if let path = error.path {
                // An operator's refusal leads back to the operator's pages, not only to the home.
                if path == "/admin" || path.hasPrefix("/admin/") {
                    model.links = (AdminHistory.origin(ofPost: path).map { [$0] } ?? []) + [("Back to the admin pages", "/admin")]
                } else if path.hasPrefix("/reports") {
                    model.links = [("Back to the report log", "/reports"), ("Experiments", "/reports/experiments")]
                }
            }
            let screen = ErrorScreen(viewModel: model)
            let bytes = Page(root: screen, configuration: services.page).render(context: services.assets.apply(to: RenderContext(csrfToken: "")))
            // An error is about this request: kept nowhere, so a fixed page is never hidden behind it.
            var response = Response.html(bytes, status: error.status)
            response.headers.set("Cache-Control", "no-store")
            return response
        }
    }

    /// An error page a known visitor was shown, for the experiments' guardrail: `error_shown` with
    /// the status and their groups, through the page events' per-client budget. Operator pages,
    /// assets and probes are not a visitor's experience and are left out.
    static func reportErrorShown(_ status: Status, request: Request, services: AppServices) {
        let path = request.path
        guard !Visitor(request: request).isNew,
              !["/assets/", "/reports", "/admin", "/metrics", "/healthz", "/report"].contains(where: { path.hasPrefix($0) })
        else { return }
        services.analytics(for: services.visit(request)).record(.errorShown, properties: ["status": String(status.rawValue)])
    }

    /// SIGHUP: re-read content and toggles now; a bad file keeps the old one serving.
    public func reload() {
        services.content.reload()
        contentVersions.checkFile()
        Self.reloadToggles(services, onlyIfChanged: false)
        toggleVersions.checkFile()
        services.assets.refresh()
    }

    /// Starts the watchers and the heartbeat.
    public func start() throws {
        try background.start()
    }

    /// Whether what is read from the viewing events at start is in: the viewing history and the
    /// first play statistics. Until then visitors get pages without rows of their own or Trending.
    public var hasReadViewing: Bool { services.viewing.isLoaded && services.plays.version > 0 }

    /// Stops the watchers, the heartbeat and the report workers, then flushes the report log to
    /// disk. After the server's shutdown, which has answered the requests still waiting.
    public func shutdown() {
        background.shutdown()
        reportPool.shutdown()
        adminPool.shutdown()
        compression.shutdown()
        services.reportLog.shutdown()
    }

    private static func reloadToggles(_ services: AppServices, onlyIfChanged: Bool) {
        let outcome = onlyIfChanged ? services.toggles.reloadIfChanged() : services.toggles.reload()
        switch outcome {
        case .rejected(let error):
            services.logger.error("toggles not reloaded; the previous ones stay", metadata: ["error": "\(error)"])
        case .reloaded(let toggles):
            services.logger.info("toggles reloaded")
            for warning in toggles.interplayWarnings { services.logger.warning("toggles: \(warning)") }
        case .unchanged:
            break
        }
    }
}

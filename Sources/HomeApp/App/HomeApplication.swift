import Basics
import FeatureToggles
import Foundation
import HomeTemplates
import Logging
import MicroHTTP
import Reporting
import ScreenKit

/// The whole app: it loads what the configuration names and answers every route. As a service
/// it runs the content and toggles watchers and the report stream's heartbeat; shutting it down
/// stops them and then flushes the report log.
public final class HomeApplication: Service {
    public let name = "home application"
    public let configuration: AppConfiguration
    let services: AppServices
    let assets: StaticFiles
    private let live: LiveReports
    private let background: ServiceGroup
    private let reportAccess: ReportAccess
    private let reportPool: WorkPool
    private let reportRateLimit: ReportRateLimit

    /// Loads everything the app serves; a missing or invalid file fails here, before listening.
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
        do {
            assets = try StaticFiles(folder: configuration.publicFolder)
        } catch {
            throw AppError.publicFolder(error.description)
        }
        let content: ContentStore
        do {
            content = try ContentStore(contentsOf: URL(fileURLWithPath: configuration.contentFile),
                                       publicDirectory: URL(fileURLWithPath: configuration.publicFolder),
                                       pollInterval: configuration.reloadInterval, logger: logger)
        } catch {
            throw AppError.content(error.description)
        }
        let toggles: ToggleRouter
        do {
            toggles = try ToggleRouter(path: configuration.togglesFile, layouts: factory.names)
        } catch {
            throw AppError.toggles(error.description)
        }
        var logConfiguration = ReportLog.Configuration(directory: configuration.reportLog,
                                                       mirrorToStandardOutput: configuration.reportToStandardOutput)
        logConfiguration.segmentBytes = configuration.reportSegmentBytes
        logConfiguration.fsync = configuration.reportFsync
        logConfiguration.retention = configuration.reportRetention
        logConfiguration.maxBytes = configuration.reportMaxBytes
        logConfiguration.minimumFree = configuration.reportMinimumFree
        let reportLog: ReportLog
        do {
            reportLog = try ReportLog(configuration: logConfiguration, logger: logger)
        } catch {
            throw AppError.reportLog("\(error)")
        }
        services = AppServices(content: content, toggles: toggles, reportLog: reportLog,
                               csrf: CSRFProtection(secret: configuration.secret), factory: factory,
                               homeItems: HomeItemsCache(), pages: PageCache(), assets: AssetLinks(files: assets),
                               logger: logger)
        live = LiveReports(log: reportLog, heartbeatInterval: configuration.heartbeatInterval)
        reportPool = WorkPool(name: "reports", workers: configuration.reportWorkers,
                              queueLimit: configuration.reportQueue, logger: logger)
        reportRateLimit = ReportRateLimit(
            visitor: .init(rate: configuration.reportVisitorRate, burst: configuration.reportVisitorBurst),
            address: .init(rate: configuration.reportAddressRate, burst: configuration.reportAddressBurst), logger: logger)
        reportAccess = ReportAccess(host: configuration.host, token: configuration.reportToken, csrf: services.csrf)
        let togglesWatcher = PeriodicTask(name: "toggles", every: configuration.reloadInterval) { [services] in
            Self.reloadToggles(services, onlyIfChanged: true)
            if services.assets.refresh() { services.logger.info("assets changed; pages link the new versions") }
        }
        background = ServiceGroup([content, togglesWatcher, live], logger: logger)
    }

    /// Every route of the app.
    public func makeRouter() -> Router {
        var router = Router()
        let home = HomeRoutes(services: services)
        home.register(in: &router)
        SceneRoutes(services: services).register(in: &router)
        SearchRoutes(services: services, home: home).register(in: &router)
        OnboardingRoutes(services: services).register(in: &router)
        SwipeBeacon(services: services, limit: reportRateLimit).register(in: &router)
        // Every page of the report log (`/reports*`) behind one access check; not its sign-in.
        router.group(reportAccess.middleware) { reports in
            ReportRoutes(services: services, access: reportAccess, live: live, pool: reportPool,
                         limit: reportRateLimit).register(in: &reports)
            ExperimentReportRoutes(services: services, pool: reportPool).register(in: &reports)
        }
        ReportSignIn(services: services, access: reportAccess).register(in: &router)
        router.get("/healthz") { _ in .text("ok") }
        router.get("/assets/*path") { [assets] request in
            try assets.response(for: request.pathSegments.dropFirst(), headers: request.headers)
        }
        return router
    }

    /// Every 4xx and 5xx page, drawn like the rest of the app.
    public var errorPage: ErrorPage {
        ErrorPage { [services] error in
            let screen = ErrorScreen(viewModel: ErrorScreenModel(status: error.status, message: error.message,
                                                                 requestID: error.requestID))
            let bytes = Page(root: screen, configuration: services.page).render(context: services.assets.apply(to: RenderContext(csrfToken: "")))
            return Response.html(bytes, status: error.status)
        }
    }

    /// SIGHUP: re-read content and toggles now; a bad file keeps the old one serving.
    public func reload() {
        services.content.reload()
        Self.reloadToggles(services, onlyIfChanged: false)
        services.assets.refresh()
    }

    /// Starts the watchers and the heartbeat.
    public func start() throws {
        try background.start()
    }

    /// Stops the watchers, the heartbeat and the report workers, then flushes the report log to
    /// disk. After the server's shutdown, which has answered the requests still waiting.
    public func shutdown() {
        background.shutdown()
        reportPool.shutdown()
        services.reportLog.shutdown()
    }

    private static func reloadToggles(_ services: AppServices, onlyIfChanged: Bool) {
        let outcome = onlyIfChanged ? services.toggles.reloadIfChanged() : services.toggles.reload()
        switch outcome {
        case .rejected(let error):
            services.logger.error("toggles not reloaded; the previous ones stay", metadata: ["error": "\(error)"])
        case .reloaded:
            services.logger.info("toggles reloaded")
        case .unchanged:
            break
        }
    }
}

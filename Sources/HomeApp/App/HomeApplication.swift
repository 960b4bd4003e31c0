import Basics
import FeatureToggles
import Foundation
import HomeTemplates
import Logging
import MicroHTTP
import ReportDatabase
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
    /// Ships the log into the report database, when there is one.
    public let shipper: ReportShipper?

    /// Loads everything the app serves; a missing or invalid file fails here, before listening.
    public init(configuration: AppConfiguration, factory: HomeFactory = .standard,
                logger: Logger = Logger(label: "dynamic-home")) throws {
        self.configuration = configuration
        precondition(!factory.names.isEmpty, "the home needs at least one layout")
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
            toggles = try ToggleRouter(path: configuration.togglesFile)
        } catch {
            throw AppError.toggles(error.description)
        }
        let reportLog = ReportLog(configuration: .init(path: configuration.reportLog,
                                                       mirrorToStandardOutput: configuration.reportToStandardOutput),
                                  logger: logger)
        if let url = configuration.reportDatabase {
            var shipping = ShipperConfiguration(databaseURL: url, instance: configuration.instance,
                                                reportLog: configuration.reportLog)
            shipping.retentionDays = configuration.reportDatabaseRetention
            shipper = ReportShipper(configuration: shipping, logger: logger)
        } else {
            shipper = nil
        }
        services = AppServices(content: content, toggles: toggles, reportLog: reportLog,
                               csrf: CSRFProtection(secret: configuration.secret), factory: factory,
                               homeItems: HomeItemsCache(), pages: PageCache(), logger: logger,
                               shared: configuration.reportDatabase.map { SharedReports(url: $0) }, shipper: shipper)
        live = LiveReports(log: reportLog, heartbeatInterval: configuration.heartbeatInterval)
        reportAccess = ReportAccess(host: configuration.host, token: configuration.reportToken, csrf: services.csrf)
        let togglesWatcher = PeriodicTask(name: "toggles", every: configuration.reloadInterval) { [services] in
            Self.reloadToggles(services, onlyIfChanged: true)
        }
        background = ServiceGroup([content, togglesWatcher, live] + (shipper.map { [$0] } ?? []), logger: logger)
    }

    /// Every route of the app.
    public func makeRouter() -> Router {
        var router = Router()
        let home = HomeRoutes(services: services)
        home.register(in: &router)
        SceneRoutes(services: services).register(in: &router)
        SearchRoutes(services: services, home: home).register(in: &router)
        OnboardingRoutes(services: services).register(in: &router)
        ReportRoutes(services: services, access: reportAccess, live: live).register(in: &router)
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
            let bytes = Page(root: screen, configuration: services.page).render(context: RenderContext(csrfToken: ""))
            return Response.html(bytes, status: error.status)
        }
    }

    /// SIGHUP: re-read content and toggles now; a bad file keeps the old one serving.
    public func reload() {
        services.content.reload()
        Self.reloadToggles(services, onlyIfChanged: false)
    }

    /// Starts the watchers and the heartbeat.
    public func start() throws {
        try background.start()
    }

    /// Stops the watchers and the heartbeat, then flushes the report log to disk.
    public func shutdown() {
        background.shutdown()
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

import Logging
import MicroHTTP

/// The whole app: it loads what the configuration names and answers every route.
public final class HomeApplication: Sendable {
    public let configuration: AppConfiguration
    let assets: StaticFiles
    let logger: Logger

    /// Loads everything the app serves; a missing or invalid file fails here, before listening.
    public init(configuration: AppConfiguration, logger: Logger = Logger(label: "dynamic-home")) throws {
        self.configuration = configuration
        self.logger = logger
        do {
            assets = try StaticFiles(folder: configuration.publicFolder)
        } catch {
            throw AppError.publicFolder(error.description)
        }
    }

    /// Every route of the app.
    public func makeRouter() -> Router {
        var router = Router()
        router.get("/healthz") { _ in .text("ok") }
        router.get("/assets/*path") { [assets] request in
            try assets.response(for: request.pathSegments.dropFirst(), headers: request.headers)
        }
        return router
    }

    /// The error page every 4xx and 5xx answer renders.
    public var errorPage: ErrorPage { .plain }
}

import Foundation
import HomeApp
import HomeLayouts
import Logging
import MicroHTTP
import Reporting
import TestSupport

/// The whole app on a real server for one test: its own temporary content, toggles and report
/// log, the repository's `Public/` for assets, an ephemeral port. Stopped when released.
public final class AppFixture {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let publicFolder = repositoryRoot.appendingPathComponent("Public")
    public static let configFolder = repositoryRoot.appendingPathComponent("Config")

    /// Holds the content, toggles and report log. Removed in `deinit` once the server and app have
    /// stopped writing into it, or on release if `init` throws halfway.
    private let folder: TemporaryDirectory
    public var directory: URL { folder.url }
    public let contentFile: URL
    public let togglesFile: URL
    public let reportLog: URL
    public let app: HomeApplication
    public let server: Server
    public var port: UInt16 { server.port ?? 0 }

    /// `content` nil copies the default catalogue; `toggles` is the toggles file's text; `configure`
    /// changes the app's configuration before it starts.
    public init(content: String? = nil, toggles: String = "{}", factory: HomeFactory = .standard,
                configure: (inout AppConfiguration) -> Void = { _ in }) throws {
        folder = try TemporaryDirectory("home-app-tests")
        contentFile = folder.url.appendingPathComponent("content.json")
        togglesFile = folder.url.appendingPathComponent("toggles.json")
        reportLog = folder.url.appendingPathComponent("reports")
        if let content {
            try Data(content.utf8).write(to: contentFile)
        } else {
            try FileManager.default.copyItem(at: Self.configFolder.appendingPathComponent("content.json"), to: contentFile)
        }
        try Data(toggles.utf8).write(to: togglesFile)
        var configuration = AppConfiguration(publicFolder: Self.publicFolder.path, contentFile: contentFile.path,
                                             togglesFile: togglesFile.path, reportLog: reportLog.path)
        configuration.reloadInterval = 0.1
        // Trending now is made once at start (before the test begins, see below) and again only
        // where a test asks for it: a list made from a test's own plays, at a moment the load
        // decides, would change the pages it compares.
        configuration.playStatisticsInterval = 3600
        configure(&configuration)
        app = try HomeApplication(configuration: configuration, factory: factory,
                                  logger: Logger(label: "home-app-tests") { _ in SwiftLogNoOpLogHandler() })
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.port = 0
        serverConfiguration.threads = 2
        serverConfiguration.errorPage = app.errorPage
        server = Server(configuration: serverConfiguration, router: app.makeRouter(),
                        logger: Logger(label: "home-app-tests") { _ in SwiftLogNoOpLogHandler() })
        try app.start()
        try server.start()
        try eventually("the viewing events read in at start") { app.hasReadViewing }
    }

    deinit {
        server.shutdown()
        app.shutdown()
        folder.remove()
    }

    /// A fresh browser with no cookies; it keeps this fixture (and so the server) alive.
    public func browser() -> Browser { Browser(port: port, keepingAlive: self) }

    /// Replaces the content file atomically, as an editor or deploy would.
    public func writeContent(_ text: String) throws {
        try Data(text.utf8).write(to: contentFile, options: .atomic)
    }

    /// Replaces the toggles file atomically and has the app re-read it (as on SIGHUP).
    public func writeToggles(_ text: String) throws {
        try Data(text.utf8).write(to: togglesFile, options: .atomic)
        app.reload()
    }

    /// The events in the report log now, from every segment as a reader of the directory sees them.
    public func events() throws -> [ReportEvent] {
        guard FileManager.default.fileExists(atPath: reportLog.path) else { return [] }
        return try ReportSegments.text(of: reportLog.path).split(separator: "\n").map { try ReportEvent(jsonLine: String($0)) }
    }

    /// Waits (the log flushes on its own thread) until `count` events named `name` are in the
    /// file, and returns those.
    public func events(named name: ReportEvent.Name, count: Int = 1) async throws -> [ReportEvent] {
        try await eventually("\(count) \(name) events in the log") { try self.events().filter { $0.name == name }.count >= count }
        return try events().filter { $0.name == name }
    }

    /// The one event named `name`, waiting for it.
    public func event(named name: ReportEvent.Name) async throws -> ReportEvent? {
        try await events(named: name).last
    }
}

extension HTTPResponse {
    /// The parsed page.
    public func html() throws -> HTMLElement { try HTMLDocument.parse(text) }

    public var location: String? { header("Location") }
}

extension HTMLElement {
    /// The `data-controller` chains of every element whose controller is `name`, e.g.
    /// `["HomeContainer", "ListHome"]`.
    public func controllerPaths(_ name: String) -> [[String]] { controllers(name).map(\.controllerPath) }

    /// The page's error message paragraph.
    public var errorMessage: String? { first { $0.hasClass("error-screen__message") }?.text }
}

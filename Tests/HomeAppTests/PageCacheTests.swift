import Foundation
import HomeApp
import MicroHTTP
import Testing
import TestSupport

/// The cached home page is byte for byte what an uncached render gives the same visitor.
@Suite struct PageCacheTests {
    static let publicFolder = ServerProcess.repositoryRoot.appendingPathComponent("Public").path

    static func server() throws -> (TestServer, HomeApplication) {
        var configuration = AppConfiguration(publicFolder: publicFolder)
        configuration.reportLog = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString).jsonl").path
        configuration.secret = "the same secret for both servers"
        let app = try HomeApplication(configuration: configuration)
        return (try TestServer(router: app.makeRouter()), app)
    }

    @Test(arguments: ["/?layout=grid", "/?layout=list", "/"])
    func aCachedPageEqualsAnUncachedRender(target: String) throws {
        let (warm, warmApp) = try Self.server()
        let (cold, coldApp) = try Self.server()
        defer { warmApp.shutdown(); coldApp.shutdown() }
        let first = Browser(port: warm.port)
        try first.get(target)  // renders and caches for the first visitor
        let second = Browser(port: warm.port)
        try second.get("/healthz")
        let visitor = [("Cookie", "visitor=0123456789abcdef0123456789abcdef")]
        let cached = try HTTPClient(port: warm.port).get(target, headers: visitor)
        let rendered = try HTTPClient(port: cold.port).get(target, headers: visitor)
        #expect(cached.status == 200)
        #expect(cached.body == rendered.body)
        #expect(Browser.csrfToken(in: cached.text) != first.csrfToken)
    }
}

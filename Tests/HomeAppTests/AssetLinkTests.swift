import Foundation
import HomeApp
import HomeAppTestSupport
import MicroHTTP
import Testing
import TestSupport

/// Pages link the site's files by their fingerprinted names, which the server caches for a year;
/// posters carry their size, decode off the main thread and load lazily below the first screen.
@Suite struct AssetLinkTests {
    /// `/assets/<path>.<8 hex digits>.<extension>`.
    static func isFingerprinted(_ link: String) -> Bool {
        let parts = link.split(separator: ".")
        return link.hasPrefix("/assets/") && parts.count >= 3
            && parts[parts.count - 2].utf8.count == 8 && parts[parts.count - 2].allSatisfy(\.isHexDigit)
    }

    @Test(arguments: ["/?layout=grid", "/?layout=list", "/search?q=a", "/settings", "/nowhere", "/long/m-001"])
    func everyPageLinksFingerprintedFiles(target: String) throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let (_, html) = try fixture.browser().page(target)
        let links = html.all("link").compactMap { $0["href"] } + html.all("script").compactMap { $0["src"] }
            + html.all("img").compactMap { $0["src"] }
        #expect(links.count >= 3)
        for link in links {
            #expect(Self.isFingerprinted(link), "\(target): \(link)")
            let response = try HTTPClient(port: fixture.port).get(link)
            #expect(response.status == 200, "\(link)")
            #expect(response.header("Cache-Control") == "max-age=31536000, immutable", "\(link)")
        }
    }

    @Test(arguments: ["grid", "list"])
    func postersLoadLazilyBelowTheFirstScreen(layout: String) throws {
        let fixture = try AppFixture()
        let (_, html) = try fixture.browser().page("/?layout=\(layout)")
        let posters = html.all("img").filter { $0["src"]?.contains("/posters/") == true }
        #expect(posters.count > 8)
        for (index, poster) in posters.enumerated() {
            #expect(poster["width"] != nil && poster["height"] != nil && poster["decoding"] == "async")
            #expect(poster["loading"] == (index < 4 ? nil : "lazy"), "poster \(index)")
        }
    }

    /// An edited stylesheet gets a new name in the pages, cached ones included.
    @Test func anEditedFileGetsANewNameInThePages() async throws {
        let folder = try TemporaryDirectory("asset-links")
        let public_ = folder.url.appendingPathComponent("Public")
        try FileManager.default.copyItem(at: AppFixture.publicFolder, to: public_)
        let config = AppFixture.repositoryRoot.appendingPathComponent("Config")
        var configuration = AppConfiguration(publicFolder: public_.path,
                                             contentFile: config.appendingPathComponent("content.json").path,
                                             togglesFile: config.appendingPathComponent("toggles.json").path)
        configuration.reportLog = folder.path("reports")
        configuration.reloadInterval = 0.1
        let app = try HomeApplication(configuration: configuration)
        try app.start()  // the watcher that notices the edit
        defer { app.shutdown() }
        let server = try TestServer(router: app.makeRouter())
        func stylesheet() throws -> String {
            let page = try HTTPClient(port: server.port).get("/?layout=grid").text
            let start = try #require(page.range(of: "<link rel=\"stylesheet\" href=\""))
            return String(page[start.upperBound...].prefix { $0 != "\"" })
        }
        let before = try stylesheet()
        #expect(try stylesheet() == before)  // the cached page
        let css = public_.appendingPathComponent("app.css")
        try (String(contentsOf: css, encoding: .utf8) + "\n.edited { color: red }\n").write(to: css, atomically: true, encoding: .utf8)
        try await eventually { try stylesheet() != before }
        let after = try stylesheet()
        #expect(try HTTPClient(port: server.port).get(after).text.contains(".edited"))
    }
}

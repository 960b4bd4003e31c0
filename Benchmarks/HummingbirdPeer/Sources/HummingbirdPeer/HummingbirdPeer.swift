import ArgumentParser
import Foundation
import Hummingbird
import Mustache
import NIOPosix

/// `hummingbird-peer --port P --content FILE [--threads N]`: serves `GET /healthz` and the grid
/// home page (`GET /` or `GET /?layout=grid`), rendered for every request from Mustache templates.
@main
struct HummingbirdPeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hummingbird-peer",
        abstract: "dynamic-home's grid page from Hummingbird 2 and swift-mustache, for scripts/bench.")

    @Option(help: "The port to listen on (0: any free port; the log line names it).")
    var port: Int = 8080

    @Option(help: "The address to listen on.")
    var hostname = "127.0.0.1"

    @Option(help: "The content file, in dynamic-home's content.json schema.")
    var content: String

    @Option(help: "Event loop threads (default: one per core).")
    var threads: Int?

    @Option(help: "The folder of .mustache templates (default: the ones built into the binary).")
    var templates: String?

    func run() async throws {
        let catalogue = try Catalogue.load(contentsOf: content)
        guard let directory = templates ?? Bundle.module.resourceURL?.appendingPathComponent("Templates").path else {
            throw ValidationError("the built-in templates are missing; pass --templates")
        }
        // Parsed once at start; each request renders through the library's partials.
        let library = try await MustacheLibrary(directory: directory)
        guard library.getTemplate(named: "page") != nil else { throw ValidationError("no page.mustache in \(directory)") }

        let app = Application(
            router: Self.router(items: catalogue.items, library: library, tokens: CSRFTokens()),
            configuration: ApplicationConfiguration(address: .hostname(hostname, port: port)),
            eventLoopGroupProvider: threads.map { .shared(MultiThreadedEventLoopGroup(numberOfThreads: $0)) } ?? .singleton
        )
        try await app.runService()
    }

    static func router(items: [Item], library: MustacheLibrary, tokens: CSRFTokens) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("healthz") { _, _ in "ok" }
        router.get("/") { request, _ -> Response in
            let layout = request.uri.queryParameters["layout"] ?? "grid"
            guard layout == "grid" else {
                throw HTTPError(.badRequest, message: "This peer draws the grid layout only: /?layout=grid")
            }
            let visitor = Visitor(cookie: request.cookies[Visitor.cookieName]?.value)
            let page = GridPage(items: items, csrfToken: tokens.token(for: visitor.id), now: Date())
            guard let html = library.render(page, withTemplate: "page") else {
                throw HTTPError(.internalServerError, message: "page.mustache is missing")
            }
            var response = HTML(html).response()
            if visitor.isNew {
                response.setCookie(Cookie(name: Visitor.cookieName, value: visitor.id, maxAge: Visitor.lifetime,
                                          path: "/", httpOnly: true, sameSite: .lax))
            }
            return response
        }
        return router
    }
}

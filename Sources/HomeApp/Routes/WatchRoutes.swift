import Basics
import MicroHTTP
import Reporting

/// Play, progress and My List: `POST /watch/ID/play` (reports `play_started`), `GET /watch/ID`,
/// `POST /watch/ID/progress` (reports `play_progress`), `POST /my-list/ID` (reports
/// `my_list_added` or `my_list_removed`), `POST /settings/clear-history` (reports
/// `history_cleared`: the rows forget what came before). Each event is written to the report log and taken
/// into the visitor's `ViewingHistory` at once. Films and clips play; live streams do not here.
/// The posts are client-made events: past the client's event limit they get 429, recording nothing.
struct WatchRoutes {
    /// The field the page's script adds to a progress post: answered 204, not with the page again.
    static let enhancedField = "enhanced"
    let services: AppServices
    let limit: EventRateLimit

    static func watchPath(_ id: String) -> String { "/watch/\(id)" }
    static func playPath(_ id: String) -> String { "/watch/\(id)/play" }
    static func progressPath(_ id: String) -> String { "/watch/\(id)/progress" }
    static func myListPath(_ id: String) -> String { "/my-list/\(id)" }
    static let clearHistoryPath = "/settings/clear-history"

    func register(in router: inout Router) {
        router.get("/watch/:id") { request in try watch(request) }
        router.group(services.csrf.middleware) { posts in
            posts.post("/watch/:id/play") { request in try play(request) }
            posts.post("/watch/:id/progress") { request in try progress(request) }
            posts.post("/my-list/:id") { request in try myList(request) }
            posts.post(Self.clearHistoryPath) { request in try clearHistory(request) }
        }
    }

    func watch(_ request: Request) throws(HTTPError) -> Response {
        let item = try playable(request)
        let visit = services.visit(request)
        let position = services.viewing.activity(for: visit.visitor.id)?.progress(of: item.id)?.position ?? 0
        let screen = WatchScreen(viewModel: WatchScreenModel(item: item, position: position, duration: Self.duration(item)))
        return visit.page(screen, configuration: services.titlePage)
    }

    func play(_ request: Request) throws(HTTPError) -> Response {
        let item = try playable(request)
        let visit = services.visit(request)
        try allow(visit)
        services.recordViewing(.playStarted, item: item.id, properties: ["duration": "\(Self.duration(item))"], for: visit)
        return visit.redirect(to: Self.watchPath(item.id))
    }

    func progress(_ request: Request) throws(HTTPError) -> Response {
        let item = try playable(request)
        let duration = Self.duration(item)
        guard let text = try request.form.single("position"), let position = TypedNumber.whole(text, maxDigits: 9),
              (0...duration).contains(position)
        else {
            throw HTTPError(.badRequest, "The position must be a whole number of seconds from 0 to \(duration).")
        }
        let visit = services.visit(request)
        try allow(visit)
        services.recordViewing(.playProgress, item: item.id,
                               properties: ["position": "\(position)", "duration": "\(duration)"], for: visit)
        if request.form[Self.enhancedField] != nil { return Response(status: .noContent) }
        return visit.redirect(to: Self.watchPath(item.id))
    }

    func myList(_ request: Request) throws(HTTPError) -> Response {
        let catalog = services.content.catalog
        let id = request.parameters["id"] ?? ""
        guard let item = catalog.item(id: id) else { throw Self.notFound(id) }
        let adding: Bool
        switch try request.form.single("action") {
        case "add": adding = true
        case "remove": adding = false
        default: throw HTTPError(.badRequest, "Say whether to add the title to My List or remove it (action add or remove).")
        }
        let visit = services.visit(request)
        let onList = services.viewing.activity(for: visit.visitor.id)?.isOnList(item.id) ?? false
        // Already as asked (a second click, a form from before): nothing happened, nothing reported.
        if adding != onList {
            if adding, (services.viewing.activity(for: visit.visitor.id)?.myList.count ?? 0) >= ViewingActivity.limit {
                throw HTTPError(.conflict, "My List holds at most \(ViewingActivity.limit) titles. Remove one to add another.")
            }
            try allow(visit)
            services.recordViewing(adding ? .myListAdded : .myListRemoved, item: item.id, for: visit)
        }
        return visit.redirect(to: "/\(ItemRequest.Scene(item.kind).rawValue)/\(item.id)")
    }

    func clearHistory(_ request: Request) throws(HTTPError) -> Response {
        let visit = services.visit(request)
        // Nothing to forget: nothing happened, nothing is reported.
        if !(services.viewing.activity(for: visit.visitor.id)?.isEmpty ?? true) {
            try allow(visit)
            services.recordViewing(.historyCleared, for: visit)
        }
        return visit.redirect(to: "/settings")
    }

    /// The film or clip the path names; 404 for anything else.
    private func playable(_ request: Request) throws(HTTPError) -> ContentItem {
        let id = request.parameters["id"] ?? ""
        guard let item = services.content.catalog.item(id: id) else { throw Self.notFound(id) }
        guard item.kind != .live else {
            throw HTTPError(.notFound, "\u{201C}\(item.title)\u{201D} is a live stream: it plays on its own page, not here.")
        }
        return item
    }

    private func allow(_ visit: Visit) throws(HTTPError) {
        try limit.check(address: visit.request)
        try limit.check(visitor: visit.visitor.id)
    }

    static func notFound(_ id: String) -> HTTPError {
        HTTPError(.notFound, "There is nothing called \u{201C}\(id)\u{201D} here. It may have been taken off the catalogue.")
    }

    /// The title's length in seconds.
    static func duration(_ item: ContentItem) -> Int {
        item.durationSeconds ?? (item.durationMinutes ?? 0) * 60
    }
}

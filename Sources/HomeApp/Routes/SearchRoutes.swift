import HomeLayouts
import MicroHTTP
import ScreenKit

/// `GET /search`: the text-input modal; with a valid `q`, the matches through the visitor's
/// current layout, in the same container the home uses.
struct SearchRoutes {
    static let maximumQueryLength = 80
    let services: AppServices
    let home: HomeRoutes

    func register(in router: inout Router) {
        router.get("/search") { request in search(request) }
    }

    func search(_ request: Request) -> Response {
        let visit = services.visit(request)
        var query: String?
        // Closing the box goes back to the page it was opened from.
        let back = ReturnPath.resolve(request, isModal: ReturnPath.isSearchBox)
        var box = TextInputRequest(
            title: "Search", label: "Find films, clips and live streams", fieldName: "q", action: "/search",
            method: .get, submitTitle: "Search", placeholder: "Title or topic", maxLength: Self.maximumQueryLength,
            dismissURL: back, requiredMessage: "Type a word to search for.") { query = $0 }
        box.hiddenFields = ReturnPath.fields(back)
        let input = TextInputController(request: box)
        let modal = ScenePivot(builder: SceneRegistry.app).present(.modal(input, dismissURL: back, dismissal: .link))
        guard let raw = request.query["q"] else { return services.respond(modal, for: visit) }
        guard input.submit(raw), let query else {
            services.logger.notice("invalid search", metadata: ["request": "\(request.id)"])
            return services.respond(modal, for: visit, status: .badRequest)
        }
        // Results name their layout once switched (`&layout=`), as the home does.
        let layout: String
        switch home.resolveLayout(for: visit, query: request.query) {
        case .found(let name): layout = name
        case .unknown(let name): return home.unknownLayout(name, visit)
        }
        let container = home.makeContainer(for: visit, title: QuotedInput("Search: ", query, "").plainText, search: query)
        container.viewModel.reportsLaunch = false
        let child = services.factory.make(layout)!
        child.baseViewModel.scrollPosition = HomeRoutes.scrollPosition(request.query)
        container.show(child)
        child.baseViewModel.heading = QuotedInput("Results for \u{201C}", query, "\u{201D}")
        child.baseViewModel.emptyMessage = QuotedInput("Nothing matches \u{201C}", query, "\u{201D}. Try another word.")
        // Results the server sent the visitor back to (after a switch, a row's "more" or closing a
        // modal) are the same search: it was reported when submitted.
        if request.query["layout"] == nil && HomeRoutes.scrollPosition(request.query) == nil
            && request.query[ReturnPath.again] == nil {
            services.analytics(for: visit).record(.searchSubmitted, layout: layout,
                                                  properties: ["query": query, "results": "\(child.baseViewModel.items.count)"])
        }
        return visit.page(container, configuration: services.page)
    }
}

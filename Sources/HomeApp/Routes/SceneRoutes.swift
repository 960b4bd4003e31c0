import HomeLayouts
import MicroHTTP
import ScreenKit

/// The destination scenes: `/long/ID`, `/short/ID`, `/stream/ID`, and `/settings`.
struct SceneRoutes {
    let services: AppServices

    func register(in router: inout Router) {
        for scene in ItemRequest.Scene.allCases {
            router.get("/\(scene.rawValue)/:id") { request in try item(request, scene) }
        }
        router.get("/settings") { request in settings(request) }
        router.group(services.csrf.middleware) { posts in
            posts.post("/settings") { request in try saveSettings(request) }
        }
    }

    func item(_ request: Request, _ scene: ItemRequest.Scene) throws(HTTPError) -> Response {
        let catalog = services.content.catalog
        let id = request.parameters["id"] ?? ""
        guard let item = catalog.item(id: id), ItemRequest.Scene(item.kind) == scene else {
            throw HTTPError(.notFound, "There is nothing called \u{201C}\(id)\u{201D} here. It may have been taken off the catalogue.")
        }
        let visit = services.visit(request)
        let activity = services.viewing.activity(for: visit.visitor.id)
        let screen = ItemScreen(viewModel: ItemScreenModel(item: item, related: catalog.related(to: item),
                                                           progress: activity?.progress(of: item.id),
                                                           isOnList: activity?.isOnList(item.id) ?? false))
        return visit.page(screen, configuration: services.titlePage)
    }

    func settings(_ request: Request) -> Response {
        let visit = services.visit(request)
        let chosen = visit.chosenLayout.flatMap { services.factory.has($0) ? $0 : nil }
        let model = SettingsScreenModel(
            layouts: services.factory.layouts.map { ($0.layoutName, $0.displayName) },
            current: chosen ?? services.defaultLayout(for: visit), isChosen: chosen != nil,
            hasHistory: !(services.viewing.activity(for: visit.visitor.id)?.isEmpty ?? true))
        return visit.page(SettingsScreen(viewModel: model), configuration: services.page)
    }

    func saveSettings(_ request: Request) throws(HTTPError) -> Response {
        let visit = services.visit(request)
        var response = visit.redirect(to: "/")
        if request.form["reset"] != nil {
            response.setCookie(.deletion(of: Visit.layoutCookie))
            return response
        }
        guard let layout = try request.form.single("layout"), services.factory.has(layout) else {
            throw HTTPError(.badRequest, "Choose one of the layouts: \(services.factory.names.joined(separator: ", ")).")
        }
        services.analytics(for: visit).record(.layoutChosen, layout: layout, properties: ["via": "settings"])
        response.setCookie(SetCookie(name: Visit.layoutCookie, value: layout, maxAge: 365 * 24 * 3600))
        return response
    }
}

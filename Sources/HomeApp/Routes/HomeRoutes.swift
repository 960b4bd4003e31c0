import Foundation
import HomeTemplates
import MicroHTTP
import ScreenKit

/// `GET /` (the home, in the visitor's layout) and `POST /home/actions` (a child's form).
struct HomeRoutes {
    static let actionsPath = "/home/actions"
    /// The form field naming the items the page was drawn from (`HomeContainer.itemsFingerprint`).
    static let catalogueField = "catalogue"
    static let staleNotice = "The catalogue changed since that page was shown, so nothing was opened. Here is the current one."
    let services: AppServices

    func register(in router: inout Router) {
        router.get("/") { request in try home(request) }
        router.group(services.csrf.middleware) { posts in
            posts.post(Self.actionsPath) { request in try action(request) }
        }
    }

    func home(_ request: Request) throws(HTTPError) -> Response {
        let visit = services.visit(request)
        let layout: String
        if let asked = request.query["layout"] {
            guard services.factory.has(asked) else { return unknownLayout(asked, visit) }
            layout = asked
        } else {
            layout = services.defaultLayout(for: visit)
        }
        let catalogue = services.homeItems.entry(for: services.content.snapshot)
        let decisions = services.toggles.decisions
        let withOnboarding = decisions.showsOnboarding(for: visit.visitor.id) && !visit.hasDismissedOnboarding
        // A scrolled grid row changes the markup; everything else is the same for every visitor
        // but the CSRF token.
        let scrollPosition = Self.scrollPosition(request.query)
        let key = PageCache.Key(layout: layout, contentVersion: catalogue.version,
                                display: catalogue.displayState(at: Date()), withOnboarding: withOnboarding,
                                assets: services.assets.version)
        if scrollPosition == nil, let cached = services.pages.page(for: key) {
            services.analytics(for: visit, decisions: decisions).replay(cached.events)
            return visit.html(.spliced(SplicedBody(template: cached.template, filling: visit.csrfTokenFilling)))
        }
        let trace = EventTrace()
        let container = makeContainer(for: visit, catalogue: catalogue, trace: trace)
        let child = services.factory.make(layout)!
        child.baseViewModel.scrollPosition = scrollPosition
        container.show(child)
        if withOnboarding {
            container.presentOverHome(NewYearContent.onion(dismissURL: OnboardingRoutes.dismissPath))
            container.analytics.record(.onboardingShown, layout: layout)
        }
        let template = Page(root: container, configuration: services.page).renderPage(context: visit.renderContext)
        if scrollPosition == nil {
            let spliced = SplicedBytes(base: template.bytes, holes: template.tokenRanges)
            // Compressed once, off this thread; until then responses are compressed one by one.
            spliced.prepareEncodingsInBackground()
            services.pages.store(PageCache.Page(template: spliced, events: trace.events), for: key)
        }
        return visit.html(.bytes(template.bytes))
    }

    /// The child that drew the form decodes it into one of the container's actions.
    func action(_ request: Request) throws(HTTPError) -> Response {
        let visit = services.visit(request)
        let form = request.form.reduce(into: [String: String]()) { fields, field in
            if fields[field.name] == nil { fields[field.name] = field.value }
        }
        guard let layout = form[HomeFormField.layout], let child = services.factory.make(layout) else {
            throw HTTPError(.badRequest, "The form did not name a layout this site has.")
        }
        // A post from search results names its query: decode it against those results.
        let container = makeContainer(for: visit, search: request.query["q"])
        if let posted = form[Self.catalogueField], posted != container.itemsFingerprint {
            // Positions from an older catalogue may name other items now: open none, show the current home.
            services.logger.info("post from an older catalogue", metadata: ["request": "\(request.id)"])
            container.viewModel.reportsLaunch = false
            container.viewModel.notice = Self.staleNotice
            container.show(child)
            return visit.page(container, status: .conflict, configuration: services.page)
        }
        container.show(child)
        do {
            try child.handle(form)
        } catch {
            throw HTTPError(.badRequest, error.description)
        }
        guard let outcome = container.outcome else {
            throw HTTPError(.badRequest, "That action is not available here.")
        }
        var response = services.respond(outcome, for: visit)
        if let replaced = container.replacedLayout {
            response.setCookie(SetCookie(name: Visit.layoutCookie, value: replaced, maxAge: 365 * 24 * 3600))
        }
        return response
    }

    /// The container for the whole home (`catalogue`, else the current one), or for the
    /// results of `query` in the current catalogue.
    func makeContainer(for visit: Visit, catalogue given: HomeItemsCache.Entry? = nil, title: String = "Home",
                       search query: String? = nil, trace: EventTrace? = nil,
                       whenWritten: (@Sendable (Bool) -> Void)? = nil) -> HomeContainer {
        let snapshot = services.content.snapshot
        let catalogue = given ?? services.homeItems.entry(for: snapshot)
        let shown = query.map { snapshot.catalog.search($0).map { $0 as any HomeItem } } ?? catalogue.items
        var analytics = services.analytics(for: visit, trace: trace)
        analytics.whenWritten = whenWritten
        return HomeContainer(items: shown, analytics: analytics,
                             pivot: ScenePivot(builder: SceneRegistry.app), title: title, query: query)
    }

    /// `?row=1&at=4`: where the grid's "more" button left a row (without JavaScript).
    static func scrollPosition(_ query: QueryParameters) -> HomeIndexPath? {
        guard let row = query["row"], let at = query["at"] else { return nil }
        return HomeIndexPath("\(row).\(at)")
    }

    private func unknownLayout(_ name: String, _ visit: Visit) -> Response {
        services.logger.notice("unknown layout", metadata: ["request": "\(visit.request.id)", "layout": "\(name)"])
        let screen = ErrorScreen(viewModel: ErrorScreenModel(
            status: .badRequest, message: "There is no layout called \u{201C}\(name)\u{201D}. These are the layouts:",
            requestID: visit.request.id,
            links: services.factory.layouts.map { ("\($0.displayName) (\($0.layoutName))", "/?layout=\($0.layoutName)") }))
        return visit.page(screen, status: .badRequest, configuration: services.page)
    }
}

import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HomeLayouts
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
        router.get("/") { request in home(request) }
        router.group(services.csrf.middleware) { posts in
            posts.post(Self.actionsPath) { request in try action(request) }
        }
    }

    /// The home in the visitor's layout: the cached page when one fits, else a fresh render.
    func home(_ request: Request) -> Response {
        let visit = services.visit(request)
        // Read once: each read of a request's field retains and releases its storage.
        let query = request.query
        // `?layout=` and whether there is a `?row=` or an `?again`, in one pass over the query.
        let names = services.factory.names
        let (asked, (scrolled, shownAgain)) = query.match("layout", among: names, andContains: "row", "again")
        let layout: String
        switch resolveLayout(asked, names: names, for: visit, query: query) {
        case .found(let name): layout = name
        case .unknown(let name): return unknownLayout(name, visit)
        }
        let catalogue = services.homeItems.entry(for: services.content)
        // The New Year notice, over the home, for visitors the toggles pick until they dismiss it.
        let withOnboarding = visit.plan.showsOnboarding && !visit.hasDismissedOnboarding
        // A scrolled grid row and a QA override's banner change the markup: drawn for this request
        // alone. Everything else (Trending now too) is the same for every visitor but the CSRF
        // token and their own rows, which the cached page takes at its slot.
        let held = viewingHeld(for: visit)
        let scrollPosition = scrolled ? Self.scrollPosition(query) : nil
        // `shownAgain`: the home the page's script asks again after Back or Forward, for the
        // visitor's rows as they are now; that visit was written already, so it writes nothing.
        if scrollPosition != nil || visit.qa != nil || shownAgain {
            let page = render(layout, for: visit, catalogue: catalogue, withOnboarding: withOnboarding && !shownAgain,
                              scrollPosition: scrollPosition, reportsLaunch: scrollPosition == nil && !shownAgain,
                              personal: held.map { personalRows($0, visit) } ?? [])
            return visit.html(.bytes(page.rendered.bytes))
        }
        // One reading of the clock for the page's display state and its events' time.
        let now = Date()
        let key = PageCache.Key(layout: layout, contentVersion: catalogue.version,
                                display: catalogue.displayState(at: now), withOnboarding: withOnboarding,
                                assets: services.assets.version, plays: services.plays.version,
                                trending: !visit.plan.hides(ViewingRows.trending))
        if let cached = services.pages.page(for: key), held == nil || cached.spliced.slot != nil {
            return serve(cached, to: visit, inserting: held.flatMap { rowsInsert($0, visit, layout, catalogue) }, at: now)
        }
        let page = render(layout, for: visit, catalogue: catalogue, withOnboarding: withOnboarding, scrollPosition: nil)
        let spliced = cache(page, for: key)
        guard let held else { return visit.html(.bytes(page.rendered.bytes)) }
        if spliced.slot != nil {
            let insert = rowsInsert(held, visit, layout, catalogue)
            return visit.html(.spliced(SplicedBody(spliced: spliced, filling: visit.csrfTokenFilling, inserted: insert)))
        }
        // A page with no single place for the rows (a layout that draws them twice, or not at all).
        let drawn = render(layout, for: visit, catalogue: catalogue, withOnboarding: withOnboarding,
                           scrollPosition: nil, personal: personalRows(held, visit))
        return visit.html(.bytes(drawn.rendered.bytes))
    }

    /// The child that drew the form decodes it into one of the container's actions.
    func action(_ request: Request) throws(HTTPError) -> Response {
        let visit = services.visit(request)
        // The home's forms send each name once: twice is a made-up post, not a choice to guess.
        let form = try request.form.singles()
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
        let answer: HomeContainer.Outcome?
        do {
            answer = try container.answer(form, with: child)
        } catch {
            throw HTTPError(.badRequest, error.description)
        }
        guard let answer else {
            throw HTTPError(.badRequest, "That action is not available here.")
        }
        var response = services.respond(answer.presentation, for: visit)
        if let replaced = answer.replacedLayout {
            response.setCookie(SetCookie(name: Visit.layoutCookie, value: replaced, maxAge: 365 * 24 * 3600))
        }
        return response
    }

    /// The container for the whole home (`catalogue`, else the current one), or for the
    /// results of `query` in the current catalogue.
    func makeContainer(for visit: Visit, catalogue given: HomeItemsCache.Entry? = nil, title: String = "Home",
                       search query: String? = nil, trace: EventTrace? = nil, rows: [HomeRow] = []) -> HomeContainer {
        let snapshot = services.content.snapshot
        let catalogue = given ?? services.homeItems.entry(for: snapshot)
        let shown = query.map { snapshot.catalog.search($0).map { $0 as any HomeItem } } ?? catalogue.items
        return HomeContainer(items: shown, rows: rows, analytics: services.analytics(for: visit, trace: trace),
                             pivot: ScenePivot(builder: SceneRegistry.app), title: title, query: query)
    }

    /// What this instance holds of the visitor's viewing, when it may give them rows of their
    /// own; nil (at the cost of one look-up) for a visitor with none, who gets the cached page. A
    /// returning visitor not held (dropped as the least recent, or new to this instance) is
    /// looked up in the log off this thread: their rows come with a later request.
    func viewingHeld(for visit: Visit) -> ViewingHistory.Held? {
        guard let held = services.viewing.held(visit.visitor.id) else {
            if !visit.visitor.isNew { services.viewingLookup?.request(visit.visitor.id.text) }
            return nil
        }
        return held.isEmpty ? nil : held
    }

    /// The visitor's own rows from what was held of them, but those the toggles hide from them.
    func personalRows(_ held: ViewingHistory.Held, _ visit: Visit) -> [HomeRow] {
        guard let activity = services.viewing.activity(held), !activity.isEmpty || activity.latestStarted != nil
        else { return [] }
        let rows = ViewingRows.make(activity, statistics: services.plays.statistics, catalog: services.content.catalog,
                                    assetURLs: services.assets.urls)
        let hidden = visit.plan.hiddenRows
        return hidden.isEmpty ? rows : rows.filter { !hidden.contains($0.name) }
    }

    /// The visitor's own rows as the cached page takes them at its slot, drawn as `layout` draws
    /// them: kept from an earlier request while nothing they are drawn from changed, else drawn
    /// now and kept. Nil when they have none to show. The versions are read before the rows are
    /// made from what they stand for, so a change meanwhile makes the next request draw again.
    private func rowsInsert(_ held: ViewingHistory.Held, _ visit: Visit, _ layout: String,
                            _ catalogue: HomeItemsCache.Entry) -> SlotInsert? {
        let key = RowsCache.Key(held: held, layout: layout, contentVersion: catalogue.version,
                                assets: services.assets.version, plays: services.plays.version,
                                hidden: visit.plan.hiddenRows)
        if let kept = services.rows.rows(for: key) { return kept }
        let rows = personalRows(held, visit)
        var insert: SlotInsert?
        if !rows.isEmpty {
            var writer = HTMLWriter(capacity: 8 * 1024)
            HomeMarkup.rows(rows, layout: layout, into: &writer)
            insert = SlotInsert(writer.finish())
        }
        services.rows.store(insert, for: key)
        return insert
    }

    /// `?row=1&at=4`: where the grid's "more" button left a row (without JavaScript).
    static func scrollPosition(_ query: QueryParameters) -> HomeIndexPath? {
        // Most requests have no `row`: told without a `String` of each value.
        guard query.contains("row"), let row = query["row"], let at = query["at"] else { return nil }
        return HomeIndexPath("\(row).\(at)")
    }

    /// What `?layout=` asks for: a layout the factory makes, else the visitor's default one.
    enum LayoutRequest {
        case found(String)
        /// `?layout=` names no layout; the visitor gets the list of those there are.
        case unknown(String)
    }

    func resolveLayout(for visit: Visit, query: QueryParameters) -> LayoutRequest {
        let names = services.factory.names
        return resolveLayout(query.match("layout", among: names), names: names, for: visit, query: query)
    }

    /// The layout for what `?layout=` asked among the factory's `names`: the factory's own name
    /// when it is one, compared in place, no `String` made.
    func resolveLayout(_ asked: QueryParameters.Match, names: [String], for visit: Visit,
                       query: QueryParameters) -> LayoutRequest {
        switch asked {
        case .absent: return .found(services.defaultLayout(for: visit))
        case .candidate(let index): return .found(names[index])
        case .other: return .unknown(query["layout"] ?? "")
        }
    }

    /// A cached page: no controllers, no render; the visitor's token goes into its holes (and
    /// their rows, when they have any, at its slot), and what its controllers reported when it
    /// was drawn is reported again for this visit.
    private func serve(_ cached: PageCache.Page, to visit: Visit, inserting insert: SlotInsert?, at now: Date) -> Response {
        Analytics.replay(cached, for: visit, log: services.reportLog, limit: services.eventLimit, at: now)
        return visit.html(.spliced(SplicedBody(spliced: cached.spliced, filling: visit.csrfTokenFilling, inserted: insert)))
    }

    /// A home page drawn now, and what its controllers reported while it was drawn.
    private struct Drawn {
        let rendered: RenderedPage
        let events: [EventTrace.Event]
    }

    /// Builds the container with the layout's child (and the notice over it) and renders it.
    private func render(_ layout: String, for visit: Visit, catalogue: HomeItemsCache.Entry, withOnboarding: Bool,
                        scrollPosition: HomeIndexPath?, reportsLaunch: Bool = true, personal: [HomeRow] = []) -> Drawn {
        let trace = EventTrace()
        let shared = visit.plan.hides(ViewingRows.trending) ? []
            : ViewingRows.shared(services.plays.statistics, catalog: services.content.catalog, assetURLs: services.assets.urls)
        let container = makeContainer(for: visit, catalogue: catalogue, trace: trace, rows: personal + shared)
        let child = services.factory.make(layout)!
        child.baseViewModel.scrollPosition = scrollPosition
        // The home shown again after a row's "More" was reported as that swipe, as with the script.
        container.viewModel.reportsLaunch = reportsLaunch
        container.show(child)
        if withOnboarding {
            container.presentOverHome(NewYearContent.onion(dismissURL: OnboardingRoutes.dismissPath))
            container.analytics.record(.onboardingShown, layout: layout)
        }
        let rendered = Page(root: container, configuration: services.page).renderPage(context: visit.renderContext)
        return Drawn(rendered: rendered, events: trace.events)
    }

    /// Keeps `page` for the next visitors, with holes where their tokens go.
    /// The rows' slot is kept when the page has exactly one.
    @discardableResult
    private func cache(_ page: Drawn, for key: PageCache.Key) -> SplicedBytes {
        let slots = page.rendered.slots
        let spliced = SplicedBytes(base: page.rendered.bytes, holes: page.rendered.tokenHoles,
                                   slot: slots.count == 1 ? slots[0] : nil, slotCapacities: HomeMarkup.rowsCapacities)
        // Compressed once, off this thread; until then responses are compressed one by one.
        spliced.prepareEncodings(on: services.compression)
        services.pages.store(PageCache.Page(spliced: spliced, events: page.events), for: key)
        return spliced
    }

    func unknownLayout(_ name: String, _ visit: Visit) -> Response {
        services.logger.notice("unknown layout", metadata: ["request": "\(visit.request.id)", "layout": "\(name)"])
        let screen = ErrorScreen(viewModel: ErrorScreenModel(
            status: .badRequest, message: "There is no layout called \u{201C}\(name)\u{201D}. These are the layouts:",
            requestID: visit.request.id,
            links: services.factory.layouts.map { ("\($0.displayName) (\($0.layoutName))", "/?layout=\($0.layoutName)") }))
        // As every error page: reported for a visitor with a visitor cookie only.
        if !visit.visitor.isNew { services.analytics(for: visit).record(.errorShown, properties: ["status": "400"]) }
        return visit.page(screen, status: .badRequest, configuration: services.page)
    }
}

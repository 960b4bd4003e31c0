import Basics
import FeatureToggles
import HomeLayouts
import Logging
import MicroHTTP
import ReportDatabase
import Reporting
import ScreenKit

/// What every route needs, shared by all threads: content, toggles, the report log, the CSRF
/// key, the layouts. Each request builds its own controller tree from these.
struct AppServices: Sendable {
    let content: ContentStore
    let toggles: ToggleRouter
    let reportLog: ReportLog
    let csrf: CSRFProtection
    let factory: HomeFactory
    let homeItems: HomeItemsCache
    let pages: PageCache
    /// Each recent visitor's own rows, drawn, for the cached page's slot.
    var rows = RowsCache()
    let assets: AssetLinks
    /// Where pages and assets are compressed, once each, off the server's threads.
    let compression: WorkPool
    /// What each recent visitor played and listed, from the report log's events.
    let viewing: ViewingHistory
    /// Trending now and Because you watched, recomputed in the background.
    let plays: PlayStatisticsTask
    /// Visitors not held in `viewing`, looked up in the report log off the request threads.
    var viewingLookup: ViewingLookup? = nil
    let logger: Logger
    /// Every instance's counts, from the report database (nil without one).
    var database: DatabaseReports? = nil
    var shipper: ReportShipper? = nil
    /// Each client's budget of events, for every event a page writes as it is served.
    var eventLimit: EventRateLimit? = nil
    let page = PageConfiguration(defaultTitle: "DynamicHome", titleSuffix: "DynamicHome",
                                 defaultThemeColor: "#14161c", iconURL: "/assets/images/logo.svg")

    /// The report and admin pages: the site's stylesheet and script and the operators' own.
    var operatorPage: PageConfiguration {
        var configuration = page
        configuration.extraStylesheetURLs = ["/assets/operator.css"]
        configuration.extraScriptURLs = ["/assets/operator.js"]
        return configuration
    }

    /// A title's page and its watch page: the site's script and theirs (the home loads less).
    var titlePage: PageConfiguration {
        var configuration = page
        configuration.extraScriptURLs = ["/assets/title.js"]
        return configuration
    }

    func visit(_ request: Request) -> Visit { Visit(request, csrf: csrf, assets: assets, decisions: toggles.decisions) }

    /// The catalogue as home items, made once per content version.
    var items: [any HomeItem] { homeItems.items(for: content.snapshot) }

    /// What a scene presentation becomes: a redirect, or a page.
    func respond(_ presentation: Presentation, for visit: Visit, status: Status = .ok) -> Response {
        switch presentation {
        case .redirect(let location): visit.redirect(to: location)
        case .page(let controller): visit.page(controller, status: status, configuration: page)
        }
    }

    func analytics(for visit: Visit, trace: EventTrace? = nil) -> Analytics {
        Analytics(log: reportLog, visit: visit, limit: eventLimit, trace: trace)
    }

    /// Writes a viewing event (play, progress, My List) and takes it into the visitor's history
    /// at once, so the next page shows it.
    func recordViewing(_ name: ReportEvent.Name, item: String? = nil, properties: [String: String] = [:], for visit: Visit) {
        let event = analytics(for: visit).event(name, item: item, properties: properties)
        viewing.apply(event)
        plays.record(event)
        reportLog.record(event)
    }

    /// The layout for a visit without `?layout=`: a QA override's layout, the visitor's choice, then the toggles (their
    /// experiment group's layout, their rollout layout, the default), then the factory's fallback.
    /// Always one the factory makes.
    func defaultLayout(for visit: Visit) -> String {
        if let forced = visit.plan.forcedLayout, factory.has(forced) { return forced }
        if let chosen = visit.chosenLayout, factory.has(chosen) { return chosen }
        let decided = visit.plan.layout
        if factory.has(decided) { return decided }
        return factory.fallbackLayout
    }
}

import FeatureToggles
import MicroHTTP
import ScreenKit

/// One request as the app sees it: who is visiting, their CSRF token, what they chose before.
/// A class: a visit is handed to the container, its analytics and the page, and each copy of a
/// struct this size retained and released every field.
final class Visit {
    static let layoutCookie = "layout"
    static let onboardedCookie = "onboarded"

    let request: Request
    let visitor: Visitor
    private let csrf: CSRFProtection
    /// Versioned asset URLs, for the pages this visit renders.
    let assets: AssetLinks
    /// What the toggles decide for this visitor, read once for the whole request.
    let plan: VisitorPlan

    init(_ request: Request, csrf: CSRFProtection, assets: AssetLinks, decisions: FeatureDecisions) {
        self.request = request
        visitor = Visitor(request: request)
        self.csrf = csrf
        self.assets = assets
        plan = decisions.plan(for: visitor.id)
    }

    /// The visitor's CSRF token, as bytes held inline: a cached page takes them as they are.
    /// Signed when asked: posts answered with a redirect never need it.
    var csrfTokenFilling: SplicedFilling { csrf.tokenFilling(for: visitor.id) }

    var csrfToken: String { csrfTokenFilling.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    var renderContext: RenderContext {
        assets.apply(to: RenderContext(csrfToken: csrfToken, path: String(request.path)))
    }

    /// The layout the visitor chose before (settings, the layout card or a switch).
    var chosenLayout: String? { request.cookies[Self.layoutCookie] }

    var hasDismissedOnboarding: Bool { request.cookies[Self.onboardedCookie] != nil }

    /// Who may keep a page. Every page carries the visitor's state (a cookie, a CSRF token, their
    /// layout): never a shared cache's, and stale at once, so the browser asks again before reusing
    /// it (it may still show it on Back). A report or admin page is kept nowhere.
    enum Caching: String {
        case visitor = "private, max-age=0"
        case nowhere = "no-store"

        /// An HTML page's headers, made once: every page shares their storage instead of
        /// allocating its own.
        var htmlHeaders: Headers {
            switch self {
            case .visitor: Self.visitorHeaders
            case .nowhere: Self.nowhereHeaders
            }
        }

        private static let visitorHeaders = headers(.visitor)
        private static let nowhereHeaders = headers(.nowhere)

        private static func headers(_ caching: Caching) -> Headers {
            Headers([("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", caching.rawValue)])
        }
    }

    /// A finished page, with the visitor cookie when the visitor is new.
    func page(_ root: ViewController, status: Status = .ok, caching: Caching = .visitor,
              configuration: PageConfiguration) -> Response {
        html(.bytes(Page(root: root, configuration: configuration).render(context: renderContext)), status: status,
             caching: caching)
    }

    /// An HTML page already rendered, with the visitor cookie when the visitor is new.
    func html(_ body: ResponseBody, status: Status = .ok, caching: Caching = .visitor) -> Response {
        var response = Response(status: status, headers: caching.htmlHeaders, body: body)
        visitor.persist(in: &response)
        return response
    }

    /// A 303 to `location`, with the visitor cookie when the visitor is new.
    func redirect(to location: String) -> Response {
        var response = Response.redirect(to: location)
        visitor.persist(in: &response)
        return response
    }
}

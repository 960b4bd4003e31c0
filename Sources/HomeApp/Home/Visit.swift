import Basics
import FeatureToggles
import MicroHTTP
import ScreenKit

/// One request as the app sees it: who is visiting, their CSRF token, what they chose before.
/// A struct, borrowed by what it is handed to: as a class it was allocated and freed on every
/// request. What keeps one (`Analytics`) copies the few fields it reads.
struct Visit {
    static let layoutCookie = "layout"
    static let onboardedCookie = "onboarded"

    let request: Request
    let visitor: Visitor
    /// The app's services, which outlive every visit (`AppServices.visit` makes them): held
    /// unretained, as a retain and a release are two atomic writes to an object every request
    /// thread shares.
    private let csrfService: Unmanaged<CSRFProtection>
    private let assetsService: Unmanaged<AssetLinks>
    /// What the toggles decide for this visitor, read once for the whole request.
    let plan: VisitorPlan
    /// The visitor's device class and cohort, the report's segments (read once; only these two
    /// are kept, so copying the visit stays cheap).
    let device: DeviceClass
    let cohort: VisitorTraits.Cohort
    /// The QA override the visitor's `qa` cookie carries, when it is valid now.
    let qa: QAOverride?

    /// The services are borrowed: an initializer's arguments are otherwise passed retained.
    init(_ request: Request, csrf: borrowing CSRFProtection, assets: borrowing AssetLinks,
         decisions: borrowing FeatureDecisions) {
        self.request = request
        // Read once: each read copies the header's storage reference (a retain and a release).
        let cookies = request.cookies
        // The visitor's id and whether a QA cookie may be there, in one reading of the header.
        let (id, mayHoldQA) = cookies.id(Visitor.cookieName, mayHold: "qa")
        visitor = Visitor(cookieID: id)
        csrfService = .passUnretained(csrf)
        assetsService = .passUnretained(assets)
        // Each trait is read only while an experiment targets it; the device also once the
        // visitor is in some experiment (its events carry it). Most requests read none.
        let targeted = decisions.targeted
        var traits = VisitorTraits(
            device: targeted.device ? Self.device(of: request) : .desktop,
            cohort: visitor.isNew ? .new : .returning,
            language: targeted.language ? VisitorTraits.firstLanguage(request.headers["Accept-Language"]) : nil,
            chosenLayout: targeted.chosenLayout ? cookies[Self.layoutCookie] : nil)
        // A cookie whose group stopped running forces nothing: ignored, as the link would be
        // refused now, so no banner says an override is on and the events are not marked.
        qa = QAOverride.current(in: cookies, mayHold: mayHoldQA, csrf: csrf).flatMap { decisions.honours($0.forced) ? $0 : nil }
        plan = decisions.plan(for: visitor.id, traits: traits, override: qa?.forced)
        if !targeted.device, plan.isAssigned { traits.device = Self.device(of: request) }
        device = traits.device
        cohort = traits.cohort
    }

    private static func device(of request: Request) -> DeviceClass {
        request.headers.withUserAgent { DeviceClass.classify(userAgentBytes: $0, mobileHintBytes: $1) }
    }

    /// The visitor's CSRF token, as bytes held inline: a cached page takes them as they are.
    /// Signed when asked: posts answered with a redirect never need it.
    var csrfTokenFilling: SplicedFilling { csrfService._withUnsafeGuaranteedRef { $0.tokenFilling(for: visitor.id) } }

    /// Versioned asset URLs, for the pages this visit renders.
    var assets: AssetLinks { assetsService.takeUnretainedValue() }

    var csrfToken: String { csrfTokenFilling.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    var renderContext: RenderContext {
        var context = assets.apply(to: RenderContext(csrfToken: csrfToken, path: String(request.path)))
        if let qa { context[QABanner.self] = qa }
        return context
    }

    /// The layout the visitor chose before (settings, the layout card or a switch).
    var chosenLayout: String? { request.cookies[Self.layoutCookie] }

    var hasDismissedOnboarding: Bool { request.cookies[Self.onboardedCookie] != nil }

    /// Who may keep a page. Every page carries the visitor's state (a cookie, a CSRF token, their
    /// layout): never a shared cache's, and stale at once, so the browser asks again before reusing
    /// it (it may still show it on Back). A report or admin page is kept nowhere (but an admin
    /// page answering a post, which Back could not show otherwise).
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
    /// The body is consumed: copied, a spliced body's inline token went through its value witnesses.
    func html(_ body: consuming ResponseBody, status: Status = .ok, caching: Caching = .visitor) -> Response {
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

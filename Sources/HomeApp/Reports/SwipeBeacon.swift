import Basics
import MicroHTTP
import Reporting

/// `POST /report`: a beacon from the page's script, e.g. the grid's sideways scroll. Answered
/// 204 only once its line is written, so an acknowledged event survives a crash.
struct SwipeBeacon {
    static let path = "/report"
    /// The only events a browser may report; everything else is the server's to say.
    static let clientEvents: Set<ReportEvent.Name> = [.horizontalSwipe]

    let services: AppServices
    let limit: EventRateLimit
    let deadlines: AcknowledgementDeadlines

    /// The address limit runs first, so a flood is refused before any token is checked.
    func register(in router: inout Router) {
        let addressLimit: Middleware = { [limit] request, next in
            try limit.check(address: request)
            return try next(request)
        }
        router.group([addressLimit, services.csrf.middleware]) { posts in
            posts.post(Self.path) { request in try report(request) }
        }
    }

    func report(_ request: Request) throws(HTTPError) -> Response {
        let visit = services.visit(request)
        try limit.check(visitor: visit.visitor.id)
        // The script sends each name once: twice is a made-up post, not an event to guess at.
        // (Each read alone: a dictionary of the form would cost a beacon more than its checks.)
        let form = request.form
        let name = ReportEvent.Name(rawValue: try form.single("event") ?? "")
        guard Self.clientEvents.contains(name) else {
            throw HTTPError(.badRequest, "The browser may only report: \(Self.clientEvents.map(\.rawValue).sorted().joined(separator: ", ")).")
        }
        guard let layout = try form.single("layout"), let child = services.factory.make(layout) else {
            throw HTTPError(.badRequest, "The event must name one of the layouts: \(services.factory.names.joined(separator: ", ")).")
        }
        guard child.scrollsRowsSideways else {
            throw HTTPError(.badRequest, "The \(layout) layout's rows do not scroll sideways: it has no swipe to report.")
        }
        // The rows are the layout's own: its child arranges the catalogue as the page did.
        child.baseViewModel.items = services.items
        guard let row = try form.single("row").flatMap({ TypedNumber.whole($0, maxDigits: 4) }), child.baseViewModel.sections.indices.contains(row) else {
            throw HTTPError(.badRequest, "\"row\" must name a row of the \(layout) layout.")
        }
        var item: String?, to = 0
        if let id = try form.single("item") {
            guard let named = child.baseViewModel.indexPath(of: id), named.section == row else {
                throw HTTPError(.badRequest, "\"item\" must be an item of row \(row).")
            }
            item = id
            to = named.item
        } else if let at = try form.single("at") {
            // The place the page's script read off the tile (`grid-tile-S-I`): search results
            // arrange fewer items in a row, so the place is kept, not an item named from it.
            guard let place = TypedNumber.whole(at, maxDigits: 4), child.baseViewModel.sections[row].items.indices.contains(place) else {
                throw HTTPError(.badRequest, "\"at\" must be a place in row \(row), from 0.")
            }
            to = place
        }
        // The line a "more" post writes, but by the script's scroll, where the row reached.
        let event = services.analytics(for: visit).event(.horizontalSwipe, layout: child.layoutName, item: item,
                                                         properties: ["row": "\(row)", "to": "\(to)", "via": "scroll"])
        let acknowledgement = WriteAcknowledgement()
        return .deferred { [deadlines, log = services.reportLog] responder in
            // Refused at once (the server is shutting down): answered 503, so never written.
            guard !responder.hasResponse else { return }
            log.record(event, claim: acknowledgement.claim, whenWritten: acknowledgement.written)
            acknowledgement.attach(responder, deadlines: deadlines)
        }
    }
}

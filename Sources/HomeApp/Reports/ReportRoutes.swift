import Foundation
import HomeTemplates
import MicroHTTP
import Reporting
import ScreenKit
import Synchronization

/// The report log over HTTP: client events in (`POST /report`), the log out as a page, as raw
/// JSON Lines, and as a live stream of server-sent events.
struct ReportRoutes {
    /// The only events a browser may report; everything else is the server's to say.
    static let clientEvents: Set<ReportEvent.Name> = [.horizontalSwipe]
    static let pageSize = 50

    let services: AppServices
    let access: ReportAccess
    let live: LiveReports
    /// Every report read runs here, off libmicrohttpd's threads: a scan of a large log held one
    /// of them, and every connection on it, for seconds.
    let pool: WorkPool
    let limit: ReportRateLimit

    func register(in router: inout Router) {
        router.post("/report") { request in try report(request) }
        router.get("/reports") { request in try reportsPage(request) }
        router.get("/reports.jsonl") { request in try rawLog(request) }
        router.get("/reports/stream") { request in try stream(request) }
        ReportSignIn(services: services, access: access).register(in: &router)
    }

    /// A beacon from the page's script, e.g. the grid's sideways scroll. Answered 204 only once
    /// its line is written, so an acknowledged event survives a crash.
    func report(_ request: Request) throws(HTTPError) -> Response {
        try limit.check(address: request.remoteAddress)
        let visit = services.visit(request)
        try visit.requireValidCSRF()
        try limit.check(visitor: visit.visitor.id)
        let name = ReportEvent.Name(rawValue: request.form["event"] ?? "")
        guard Self.clientEvents.contains(name) else {
            throw HTTPError(.badRequest, "The browser may only report: \(Self.clientEvents.map(\.rawValue).sorted().joined(separator: ", ")).")
        }
        guard let layout = request.form["layout"], let child = services.factory.make(layout) else {
            throw HTTPError(.badRequest, "The event must name one of the layouts: \(services.factory.names.joined(separator: ", ")).")
        }
        // The swipe reaches the child that drew the row, which tells its container through the
        // injected `didHorizontalSwipe`: the container reports it, as it does for "more".
        let acknowledgement = WriteAcknowledgement()
        let container = HomeRoutes(services: services).makeContainer(for: visit, whenWritten: acknowledgement.written)
        container.show(child)
        guard let row = request.form["row"].flatMap({ Int($0) }), child.baseViewModel.sections.indices.contains(row) else {
            throw HTTPError(.badRequest, "\"row\" must name a row of the \(layout) layout.")
        }
        var path = HomeIndexPath(section: row, item: 0)
        if let id = request.form["item"] {
            guard let named = child.baseViewModel.indexPath(of: id), named.section == row else {
                throw HTTPError(.badRequest, "\"item\" must be an item of row \(row).")
            }
            path = named
            container.swipeNamesItem = true
        }
        container.swipeSource = .scroll
        child.didHorizontalSwipe?(path)
        return .later { reply in acknowledgement.attach(reply) }
    }

    func reportsPage(_ request: Request) throws(HTTPError) -> Response {
        try access.authorize(request)
        let query = request.query
        func value(_ name: String) -> String? { query[name].flatMap { $0.isEmpty ? nil : $0 } }
        let filter = ReportFilter(event: value("event"), layout: value("layout"), item: value("item"), visitor: value("visitor"))
        var cursor: ReportCursor?
        if let before = value("before") {
            guard let parsed = ReportCursor(before) else { throw HTTPError(.badRequest, "\"before\" must be a position from an \u{201C}Older events\u{201D} link.") }
            cursor = parsed
        }
        return try pool.respond { [services, cursor] () throws(HTTPError) -> Response in
            let reader = ReportReader(path: services.reportLog.configuration.path, logger: services.logger)
            do {
                let model = ReportsScreenModel(
                    filter: filter, page: try reader.page(matching: filter, limit: Self.pageSize, before: cursor),
                    summary: try reader.summary(matching: filter), perMinute: try reader.eventsPerMinute(matching: filter),
                    eventNames: ReportEvent.Name.known.map(\.rawValue), layouts: services.factory.names)
                return services.visit(request).page(ReportsScreen(viewModel: model), configuration: services.page)
            } catch {
                services.logger.error("report log unreadable", metadata: ["error": "\(error)"])
                throw HTTPError(.serviceUnavailable, "The report log cannot be read right now.")
            }
        }
    }

    /// The log file as it is, streamed a chunk at a time; `?since=` skips older lines. The first
    /// chunk (which skips them) is read on the pool; each later one is a bounded read.
    func rawLog(_ request: Request) throws(HTTPError) -> Response {
        try access.authorize(request)
        var since: Date?
        if let text = request.query["since"] {
            guard let date = ReportTimestamp.parse(text) else {
                throw HTTPError(.badRequest, "\"since\" must be a UTC time like 2026-11-21T12:00:00.000Z.")
            }
            since = date
        }
        return try pool.respond { [services, since] () throws(HTTPError) -> Response in
            let reader = ReportReader(path: services.reportLog.configuration.path, logger: services.logger)
            guard let lines = try? reader.lineStream(since: since) else {
                throw HTTPError(.serviceUnavailable, "The report log cannot be read right now.")
            }
            let first = Mutex(lines.nextChunk())
            let body = ChunkedBody(next: { maxBytes in
                first.withLock { chunk in defer { chunk = nil }; return chunk } ?? lines.nextChunk(maxBytes: maxBytes)
            }, close: { lines.close() })
            return Response(headers: Headers([("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")]),
                            body: .chunks(body))
        }
    }

    /// Server-sent events: one per line as it is written, its `id:` the line's position in the
    /// store. A watcher that reconnects with `Last-Event-ID` first gets every line after it.
    func stream(_ request: Request) throws(HTTPError) -> Response {
        try access.authorize(request)
        var resume: ReportPosition?
        if let id = request.headers["Last-Event-ID"], !id.isEmpty {
            guard let position = ReportPosition(id) else {
                throw HTTPError(.badRequest, "Last-Event-ID must be a position this stream sent (segment:offset).")
            }
            resume = position
        }
        let (stream, watcher) = live.watch(resuming: resume != nil)
        if let resume {
            live.resume(LiveReplay(store: services.reportLog.store, after: resume, watcher: watcher))
        }
        return Response(headers: Headers([("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]),
                        body: .stream(stream))
    }
}

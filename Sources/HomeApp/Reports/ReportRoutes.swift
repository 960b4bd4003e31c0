import Foundation
import HomeTemplates
import MicroHTTP
import Reporting
import ScreenKit
import Synchronization

/// The report log over HTTP: client events in (`POST /report`), the log out as a page, as raw
/// JSON Lines, and as a live stream of server-sent events.
struct ReportRoutes {
    static let pageSize = 50

    let services: AppServices
    let access: ReportAccess
    let live: LiveReports
    /// Every report read runs here, off libmicrohttpd's threads: a scan of a large log held one
    /// of them, and every connection on it, for seconds.
    let pool: WorkPool
    let limit: ReportRateLimit

    func register(in router: inout Router) {
        router.get("/reports") { request in try reportsPage(request) }
        router.get("/reports.jsonl") { request in try rawLog(request) }
        router.get("/reports/stream") { request in try stream(request) }
    }

    func reportsPage(_ request: Request) throws(HTTPError) -> Response {
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

    /// Server-sent events: one `data:` line per event as it is written.
    func stream(_ request: Request) throws(HTTPError) -> Response {
        return Response(headers: Headers([("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]),
                        body: .stream(live.watch()))
    }
}

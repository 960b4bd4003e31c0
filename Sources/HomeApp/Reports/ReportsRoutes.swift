#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HomeLayouts
import MicroHTTP
import ReportDatabase
import Reporting
import ScreenKit
import Synchronization

/// The report log over HTTP: client events in (`POST /report`), the log out as a page, as raw
/// JSON Lines, and as a live stream of server-sent events.
struct ReportsRoutes {
    static let pageSize = 50

    let services: AppServices
    let access: ReportsAccess
    let live: LiveReports
    /// Every report read runs here, off libmicrohttpd's threads: a scan of a large log held one
    /// of them, and every connection on it, for seconds.
    let pool: RequestPool
    let limit: EventRateLimit
    /// Which toggles version changed a running experiment's split, for `/reports.json`.
    var splitChanges: SplitChanges?

    func register(in router: inout Router) {
        router.get("/reports") { request in try reportsPage(request) }
        router.get("/reports.jsonl") { request in try rawLog(request) }
        router.get("/reports.json") { request in try numbers(request) }
        router.get("/reports/stream") { request in try stream(request) }
    }

    /// The report page: counts, per-layout counts, the chart and its change markers for the range;
    /// the newest matching events, a page at a time ("Older events"). With a report database,
    /// every instance's (`ReportsReading`).
    func reportsPage(_ request: Request) throws(HTTPError) -> Response {
        let asked = try ReportsQuery(request.query)
        let refused = [limit, services.eventLimit].compactMap { $0 }.reduce(0) {
            $0 + $1.counts.visitor.load(ordering: .relaxed) + $1.counts.address.load(ordering: .relaxed)
        }
        return try pool.respond { [services] in
            let reading = try ReportsReading.read(asked, services: services, limit: Self.pageSize)
            var model = ReportsScreenModel(reading: reading, eventNames: ReportEvent.Name.known.map(\.rawValue) + ConfigChange.names,
                                           layouts: services.factory.names, refused: refused)
            model.lag = services.shipper?.status.lag()
            model.signedIn = access.hasValidCookie(request)
            model.setAside = services.reportLog.store.setAsideSegments
            model.refusedChanges = RefusedChangeNotice.entries(services)
            return services.visit(request).page(ReportsScreen(viewModel: model), caching: .nowhere,
                                                configuration: services.operatorPage)
        }
    }

    /// The page's numbers as JSON, with the same range, filters, source and access rule.
    func numbers(_ request: Request) throws(HTTPError) -> Response {
        let asked = try ReportsQuery(request.query)
        let segment = try ExperimentReportRoutes.segment(request.query["segment"])
        return try pool.respond { [services, splitChanges] in JSONErrors.catching(request, logger: services.logger) {
            let reading = try ReportsReading.read(asked, services: services, limit: 0)
            let experiments = ExperimentsJSON.member(reading.query.range, segment: segment, services: services,
                                                     splitChanges: splitChanges?.current().newestChanges ?? [:])
            let setAside = SetAsideNotice.jsonMember(services.reportLog.store.setAsideSegments)
            let members = [experiments, setAside, ConfigChange.jsonMember(reading.changes),
                           DatabaseReportsJSON.members(reading.source, lag: services.shipper?.status.lag())]
            let document = ReportsJSON.document(reading.summary, experiments: members.joined(separator: ","))
            return Response(headers: Headers([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                            body: .bytes(Array(document.utf8)))
        } }
    }

    /// The log's lines, segment after segment, streamed a chunk at a time; `?since=` starts at the
    /// first line at or after that time (found by binary search). The first chunk is read on the
    /// pool; each later one is a bounded read.
    func rawLog(_ request: Request) throws(HTTPError) -> Response {
        var since: Date?
        if let text = request.query["since"], !text.isEmpty {
            guard let date = ReportRangeQuery.parse(text, endOfDay: false) else {
                throw HTTPError(.badRequest, "\"since\" must be a UTC time like 2026-11-21T12:00:00.000Z or a day like 2026-11-21.")
            }
            since = date
        }
        return try pool.respond { [services, pool, since] in JSONErrors.catching(request, logger: services.logger) {
            // With a report database, every instance's lines; the local log while it cannot answer.
            if let database = services.database,
               let response = try DatabaseLinesBody.response(DatabaseLines(database, since: since), pool: pool, logger: services.logger) {
                return response
            }
            let store = services.reportLog.store
            let lines = Mutex(store.lines(since: since).makeIterator())
            let first = Mutex(lines.withLock { $0.nextChunk(maxBytes: 64 * 1024) })
            // A segment that cannot be read cuts the response short (no zero chunk): the client
            // sees an error rather than a clean end. One set aside before says so in a header.
            let body = ChunkedBody(next: { maxBytes in
                first.withLock { chunk in defer { chunk = nil }; return chunk } ?? lines.withLock { $0.nextChunk(maxBytes: maxBytes) }
            }, failed: { lines.withLock { $0.failure != nil } })
            var headers = Headers([("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")])
            let setAside = store.setAsideSegments.count
            if setAside > 0 { headers.add("X-Report-Segments-Set-Aside", "\(setAside)") }
            return Response(headers: headers, body: .chunks(body))
        } }
    }

    /// Server-sent events: one per line as it is written, its `id:` the line's position in the
    /// store (with a report database, its key in the shared order). A watcher that reconnects
    /// with `Last-Event-ID` first gets every line after it.
    func stream(_ request: Request) throws(HTTPError) -> Response {
        // The browser's own resumption first; else where the page that opens the stream ends.
        let header = request.headers["Last-Event-ID"].flatMap { $0.isEmpty ? nil : $0 }
        let id = header ?? request.query["after"]
        let named = header == nil ? "after=" : "Last-Event-ID"
        if live.followsDatabase, let database = services.database {
            let after = try id.map { text throws(HTTPError) in try Self.databaseKey(text, named: named) }
            let (stream, watcher) = live.watch(resuming: after != nil)
            if let after { live.resume(DatabaseReplay(reports: database, after: after, watcher: watcher)) }
            return Self.eventStream(stream)
        }
        var resume: ReportPosition?
        if let id {
            guard let position = ReportPosition(id) else {
                throw HTTPError(.badRequest, "\(named) must be a position this stream sent (segment:offset) or where /reports ends.")
            }
            // Past the log's end the catch-up would wait for lines that never come (no line is after it).
            guard services.reportLog.store.precedesEnd(position) else {
                throw HTTPError(.badRequest, "\(named) \(position) is past the end of the report log: no line this stream sent has it.")
            }
            resume = position
        }
        let (stream, watcher) = live.watch(resuming: resume != nil)
        if let resume {
            live.resume(LocalReplay(store: services.reportLog.store, after: resume, watcher: watcher))
        }
        return Self.eventStream(stream)
    }

    /// A key of the shared stream's order, as its ids (or `/reports`' `data-after`) give it; one
    /// later than the clocks allow is no id it sent.
    private static func databaseKey(_ id: String, named name: String) throws(HTTPError) -> DatabaseEventKey {
        guard let key = DatabaseEventKey(id: id),
              key.time <= ReportTimestamp.string(from: Date().addingTimeInterval(60)) else {
            throw HTTPError(.badRequest, "\(name) must be an id this stream sent (time/instance/segment/offset) or where /reports ends.")
        }
        return key
    }

    private static func eventStream(_ stream: ResponseStream) -> Response {
        Response(headers: Headers([("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]),
                 body: .stream(stream))
    }
}

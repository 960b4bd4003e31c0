#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ReportDatabase
import Reporting

/// What `/reports` and `/reports.json` show, read from where the one story is: with a report
/// database every instance's events there, so each instance behind a load balancer shows the
/// same; without one, or while it cannot answer, this instance's own log, and the pages say so.
/// Runs on the report pool, whose workers bound the database work (one connection, held in turn).
struct ReportsReading {
    enum Source {
        /// No report database: this instance's log is the whole story.
        case local
        /// Every instance's events, and how far each has shipped.
        case database(instances: [DatabaseReports.Instance])
        /// The database could not answer (why): this instance's log instead.
        case fallback(String)
    }

    /// As asked, a visitor given by the start of an id resolved to the whole id.
    var query: ReportsQuery
    var summary: ReportSummary
    /// The newest matching events, `limit` at a time.
    var events: [ReportEvent] = []
    /// The `before=` of "Older events"; nil when there are none.
    var next: String?
    var changes: [ConfigChange] = []
    var source: Source
    /// With a report database, on a page of the newest events: the key its events end before,
    /// where the live stream starts (`?after=`), so each row is on the page or on the stream, once.
    var streamStart: DatabaseEventKey?

    /// Reads the range, filters and (when `limit` > 0) a page of events.
    static func read(_ asked: ReportsQuery, services: AppServices, limit: Int) throws(HTTPError) -> ReportsReading {
        var reason: String?
        if let database = services.database {
            do {
                return try fromDatabase(database, asked, limit: limit, dropped: services.reportLog.dropped)
            } catch let error as HTTPError {
                throw error
            } catch {
                // The page says so; the shipper already logs the database's coming and going.
                reason = "\(error)"
            }
        }
        return try local(services.reportLog.store, asked, limit: limit, source: reason.map(Source.fallback) ?? .local)
    }

    private static func fromDatabase(_ database: DatabaseReports, _ asked: ReportsQuery, limit: Int, dropped: Int) throws -> ReportsReading {
        var query = asked
        if let given = query.filter.visitor, VisitorPrefix.isPrefix(given) {
            query.filter.visitor = try VisitorPrefix.choose(
                given, among: database.visitors(startingWith: given.lowercased(), in: query.range, limit: 3))
        }
        let filter = query.filter
        // A page of the newest events ends where its live stream starts. The stream sends a row
        // once the feed has held it (`DatabaseLineFeed.hold`): the rows younger than that come on
        // the stream instead, in the order it agrees on, and are neither drawn nor counted here.
        let live = limit > 0 && query.range.to == nil && query.before == nil
        let cut = live ? Date().addingTimeInterval(-DatabaseLineFeed.hold) : nil
        let extent = try database.extent()
        var summary = try SeriesBound.summary(extent: extent, query.range) {
            try database.summary($0, filter: filter, extent: extent, before: cut)
        }
        // Losses happen before shipping: only this instance knows its own.
        summary.dropped = dropped
        var reading = ReportsReading(query: query, summary: summary, source: .database(instances: try database.instances()))
        reading.streamStart = cut.map { .before(ReportTimestamp.string(from: $0)) }
        if limit > 0 {
            let before = reading.streamStart ?? query.before.flatMap(DatabaseEventKey.init(id:))
            let page = try database.events(query.range, filter: filter, before: before, limit: limit)
            reading.events = page.events
            reading.next = page.next?.description
        }
        reading.changes = try database.changes(query.range, limit: ConfigChange.limit).compactMap(ConfigChange.init)
        return reading
    }

    private static func local(_ store: ReportStore, _ asked: ReportsQuery, limit: Int, source: Source) throws(HTTPError) -> ReportsReading {
        var query = asked
        query.filter = try VisitorPrefix.resolve(query.filter, range: query.range, store: store)
        let summary = SeriesBound.summary(store, query.range, filter: query.filter)
        var reading = ReportsReading(query: query, summary: summary, source: source)
        if limit > 0 {
            // A key of the shared order (a link followed while the database is away) starts from the newest.
            let page = store.events(matching: query.filter, range: query.range, before: query.before.flatMap(ReportPosition.init),
                                    limit: limit)
            reading.events = page.events
            reading.next = page.next?.description
        }
        // An unfiltered summary already says whether the range holds any change.
        let filtered = query.filter != ReportFilter()
        if filtered || ConfigChange.names.contains(where: { summary.byEvent[$0] != nil }) {
            reading.changes = ConfigChange.local(store, query.range)
        }
        return reading
    }
}

import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReportDatabase
import Reporting
import ScreenKit

/// The report log as a page: a time range, filters, counts, a chart, the newest events.
/// With JavaScript it follows `/reports/stream` and adds new events as they are written.
final class ReportsScreen: GenericViewController<ReportsScreenModel, ReportsScreenView> {
    override var pageTitle: String? { "Report log" }
}

struct ReportsScreenModel {
    let query: ReportsQuery
    let summary: ReportSummary
    let events: [ReportEvent]
    /// The `before=` of "Older events"; nil when there are none.
    let next: String?
    /// The toggles' and catalogue's changes in the range: the chart's markers.
    let changes: [ConfigChange]
    /// Where the figures come from: this instance's log, or every instance's in the database.
    let source: ReportsReading.Source
    /// With a report database, where the live stream starts: after the page's events.
    let streamStart: DatabaseEventKey?
    let eventNames: [String]
    let layouts: [String]
    /// `POST /report` refused by the rate limit since the server started.
    let refused: Int
    /// Seconds of this instance's events not yet in the report database; nil without one.
    var lag: Double? = nil
    /// Read through a sign-in, which the page offers to end.
    var signedIn = false
    /// Segments that could not be read, set aside (read after the counts and events, which may find one).
    var setAside: [SetAsideSegment] = []
    /// Refused changes of the content or toggles file, newest first.
    var refusedChanges: [RefusedChangeNotice.Entry] = []

    init(reading: ReportsReading, eventNames: [String], layouts: [String], refused: Int) {
        query = reading.query
        summary = reading.summary
        events = reading.events
        next = reading.next
        changes = reading.changes
        source = reading.source
        streamStart = reading.streamStart
        self.eventNames = eventNames
        self.layouts = layouts
        self.refused = refused
    }

    var filter: ReportFilter { query.filter }
}

/// Percent-encoding for values put into query strings by the app itself.
enum QueryEncoding {
    static func encode(_ value: String) -> String {
        PercentEncoding.encode(value, keeping: PercentEncoding.isUnreserved)
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import Reporting

/// `?from=` and `?to=` of the report pages: a UTC day (`2026-11-24`, as a date field sends it) or a
/// report timestamp. A day as `to` includes that whole day.
struct ReportRangeQuery: Equatable {
    let range: ReportRange
    /// The values as given (empty ones dropped), to fill the form again.
    let from: String?
    let to: String?

    init(_ query: QueryParameters) throws(HTTPError) {
        from = query["from"].flatMap { $0.isEmpty ? nil : $0 }
        to = query["to"].flatMap { $0.isEmpty ? nil : $0 }
        var range = ReportRange()
        if let from {
            guard let date = Self.parse(from, endOfDay: false) else { throw Self.error("from") }
            range.from = date
        }
        if let to {
            guard let date = Self.parse(to, endOfDay: true) else { throw Self.error("to") }
            range.to = date
        }
        if let start = range.from, let end = range.to, end <= start {
            throw HTTPError(.badRequest, "\"to\" must be after \"from\".")
        }
        self.range = range
    }

    static func parse(_ text: String, endOfDay: Bool) -> Date? {
        if text.utf8.count == 10, let day = ReportTimestamp.parse(text + "T00:00:00Z") {
            return endOfDay ? day.addingTimeInterval(86_400) : day
        }
        return ReportTimestamp.parse(text)
    }

    static func error(_ name: String) -> HTTPError {
        HTTPError(.badRequest, "\"\(name)\" must be a UTC day like 2026-11-24 or a time like 2026-11-24T12:00:00.000Z.")
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import Reporting

/// `?from=` and `?to=` of the report pages: a UTC day (`2026-11-24`, as a date field sends it), a
/// report timestamp, or a UTC time without its `Z` (`2026-11-24T12:05`, as a datetime-local field
/// sends it). A day as `to` includes that whole day.
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
        return ReportTimestamp.parse(text) ?? ReportTimestamp.parse(fieldTime(text))
    }

    /// A datetime-local field's value (seconds and a fraction of 1 to 3 digits optional) as a
    /// report timestamp, read as UTC; anything else unchanged, for the parse to refuse.
    private static func fieldTime(_ text: String) -> String {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !text.hasSuffix("Z"), text.utf8.count >= 16, let time = parts.first else { return text }
        let seconds = time.utf8.count == 16 ? time + ":00" : String(time)
        guard parts.count == 2 else { return seconds + "Z" }
        let fraction = parts[1]
        guard time.utf8.count == 19, (1...3).contains(fraction.utf8.count) else { return text }
        return seconds + "." + fraction + String(repeating: "0", count: 3 - fraction.utf8.count) + "Z"
    }

    static func error(_ name: String) -> HTTPError {
        HTTPError(.badRequest, "\"\(name)\" must be a UTC day like 2026-11-24 or a time like 2026-11-24T12:00:00.000Z.")
    }
}

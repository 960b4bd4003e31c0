#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import ReportDatabase
import Reporting

/// What `/reports` and `/reports.json` were asked: a range (`from`/`to`, or a preset `last`),
/// filters (event, layout, item, visitor) and, for the event list, `before` (an "Older events"
/// position); a `from` or `to` given beside `last` wins. Invalid values are refused with a 400 that
/// says which and how.
struct ReportsQuery {
    /// The filters; a visitor given by the start of an id becomes the whole id (`VisitorPrefix`).
    var filter: ReportFilter
    let range: ReportRange
    /// The range as asked, to fill the form and links again.
    let from: String?
    let to: String?
    let preset: ReportsPreset?
    /// Where the event list goes on from: a local store position, or with a report database a
    /// key of the shared order (`DatabaseEventKey`); each reader takes the form it wrote.
    let before: String?

    init(_ query: QueryParameters, now: Date = Date()) throws(HTTPError) {
        func value(_ name: String) -> String? { query[name].flatMap { $0.isEmpty ? nil : $0 } }
        filter = ReportFilter(event: value("event"), layout: value("layout"), item: value("item"),
                              visitor: value("visitor").flatMap(VisitorPrefix.typed))
        let last = value("last")
        if let last, ReportsPreset(rawValue: last) == nil {
            throw HTTPError(.badRequest, "\"last\" must be one of: \(ReportsPreset.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        // The filter form carries the preset it was drawn on; a day typed into it takes the range over.
        if let preset = last.flatMap(ReportsPreset.init(rawValue:)), value("from") == nil, value("to") == nil {
            self.preset = preset
            range = ReportRange(from: preset.span.map { now.addingTimeInterval(-$0) }, to: nil)
            from = nil
            to = nil
        } else {
            let asked = try ReportRangeQuery(query)
            preset = nil
            range = asked.range
            from = asked.from
            to = asked.to
        }
        if let text = value("before") {
            guard ReportPosition(text).map({ $0 != .start }) ?? (DatabaseEventKey(id: text) != nil) else {
                throw HTTPError(.badRequest, "\"before\" must be a position from an \u{201C}Older events\u{201D} link.")
            }
            before = text
        } else {
            before = nil
        }
    }

    /// The range and filters as a query string (no `before`), for links that keep them.
    var linkQuery: String {
        let pairs: [(String, String?)] = [
            ("last", preset?.rawValue), ("from", from), ("to", to), ("event", filter.event),
            ("layout", filter.layout), ("item", filter.item), ("visitor", filter.visitor),
        ]
        return pairs.compactMap { name, value in value.map { "\(name)=\(QueryEncoding.encode($0))" } }
            .joined(separator: "&")
    }

    /// The range and filters with `key` (`event` or `layout`) set to `value`: a count's link to
    /// the events it counts.
    func narrowed(_ key: String, to value: String) -> String {
        let pairs: [(String, String?)] = [
            ("last", preset?.rawValue), ("from", from), ("to", to), ("event", key == "event" ? value : filter.event),
            ("layout", key == "layout" ? value : filter.layout), ("item", filter.item), ("visitor", filter.visitor),
        ]
        return pairs.compactMap { name, value in value.map { "\(name)=\(QueryEncoding.encode($0))" } }
            .joined(separator: "&")
    }

    /// The range alone, and `visitor`: the events table's link to one visitor's events.
    func visitorQuery(_ visitor: String) -> String {
        [("last", preset?.rawValue), ("from", from), ("to", to), ("visitor", visitor)]
            .compactMap { name, value in value.map { "\(name)=\(QueryEncoding.encode($0))" } }
            .joined(separator: "&")
    }

    /// The filters alone, for the preset links.
    var filterQuery: String {
        [("event", filter.event), ("layout", filter.layout), ("item", filter.item), ("visitor", filter.visitor)]
            .compactMap { name, value in value.map { "\(name)=\(QueryEncoding.encode($0))" } }
            .joined(separator: "&")
    }
}

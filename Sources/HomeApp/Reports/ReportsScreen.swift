import Foundation
import Reporting
import ScreenKit

/// The report log as a page: filters, counts, a chart of the last hour, the newest events.
/// With JavaScript it follows `/reports/stream` and adds new events as they are written.
final class ReportsScreen: GenericViewController<ReportsScreenModel, ReportsScreenView> {
    override var pageTitle: String? { "Report log" }
}

struct ReportsScreenModel {
    let filter: ReportFilter
    let page: ReportPage
    let summary: ReportSummary
    let perMinute: [MinuteCount]
    let eventNames: [String]
    let layouts: [String]
    /// Every instance's counts from the report database; nil without one.
    var shared: SharedReportsSection? = nil

    /// The query string of the current filter, for links that keep it.
    var filterQuery: String {
        [("event", filter.event), ("layout", filter.layout), ("item", filter.item), ("visitor", filter.visitor)]
            .compactMap { name, value in value.map { "\(name)=\(QueryEncoding.encode($0))" } }
            .joined(separator: "&")
    }
}

/// Percent-encoding for values put into query strings by the app itself.
enum QueryEncoding {
    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    private static let allowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()
}

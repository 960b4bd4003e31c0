import Foundation
import Reporting

/// The `"database"` member of `/reports.json` with a report database: every instance's counts
/// and how far each has shipped, or why the database cannot say.
enum SharedReportsJSON {
    static func member(_ section: SharedReportsSection) -> String {
        let string = JSONText.string, time = JSONText.time, counts = JSONText.counts
        switch section {
        case .unavailable(let reason):
            return "\"database\":{\"unavailable\":\(string(reason))}"
        case .overview(let overview, _):
            let instances = overview.instances.map { instance in
                "{\"name\":\(string(instance.name)),\"events\":\(instance.events),"
                    + "\"shippedAt\":\(time(instance.shippedAt)),\"completeUntil\":\(time(instance.completeUntil))}"
            }.joined(separator: ",")
            return "\"database\":{\"total\":\(overview.total),\"byEvent\":\(counts(overview.byEvent)),\"byLayout\":\(counts(overview.byLayout)),"
                + "\"completeUntil\":\(time(overview.completeUntil.flatMap { $0 > .distantPast ? $0 : nil })),"
                + "\"instances\":[\(instances)]}"
        }
    }
}

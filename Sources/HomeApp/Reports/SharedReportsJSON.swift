import Foundation
import Reporting

/// The `"database"` member of `/reports.json` with a report database: every instance's counts
/// and how far each has shipped, or why the database cannot say.
enum SharedReportsJSON {
    static func member(_ section: SharedReportsSection) -> String {
        let string = ExperimentsJSON.string
        func time(_ date: Date?) -> String { date.map { string(ReportTimestamp.string(from: $0)) } ?? "null" }
        switch section {
        case .unavailable(let reason):
            return "\"database\":{\"unavailable\":\(string(reason))}"
        case .overview(let overview, _):
            let events = overview.byEvent.sorted { $0.key < $1.key }.map { "\(string($0.key)):\($0.value)" }.joined(separator: ",")
            let layouts = overview.byLayout.sorted { $0.key < $1.key }.map { "\(string($0.key)):\($0.value)" }.joined(separator: ",")
            let instances = overview.instances.map { instance in
                "{\"name\":\(string(instance.name)),\"events\":\(instance.events),"
                    + "\"shippedAt\":\(time(instance.shippedAt)),\"completeUntil\":\(time(instance.completeUntil))}"
            }.joined(separator: ",")
            return "\"database\":{\"total\":\(overview.total),\"byEvent\":{\(events)},\"byLayout\":{\(layouts)},"
                + "\"completeUntil\":\(time(overview.completeUntil.flatMap { $0 > .distantPast ? $0 : nil })),"
                + "\"instances\":[\(instances)]}"
        }
    }
}

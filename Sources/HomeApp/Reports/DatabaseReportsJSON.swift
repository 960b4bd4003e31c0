import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReportDatabase
import Reporting

/// Where `/reports.json`'s figures come from: `"source":"database"` (every instance's) with a
/// `"database"` member saying how far each instance has shipped, or `"source":"local"` (this
/// instance's log), with `"database":{"unavailable":"…"}` while a configured database cannot answer.
enum DatabaseReportsJSON {
    static func members(_ source: ReportsReading.Source, lag: Double?) -> String {
        let string = JSONText.string, time = JSONText.time
        switch source {
        case .local:
            return "\"source\":\"local\""
        case .fallback(let reason):
            return "\"source\":\"local\",\"database\":{\"unavailable\":\(string(reason))}"
        case .database(let instances):
            let listed = instances.map { instance in
                "{\"name\":\(string(instance.name)),\"events\":\(instance.events),"
                    + "\"shippedAt\":\(time(instance.shippedAt)),\"completeUntil\":\(time(instance.completeUntil))}"
            }.joined(separator: ",")
            return "\"source\":\"database\",\"database\":{\"completeUntil\":\(time(DatabaseReports.completeUntil(instances))),"
                + "\"lag\":\(lag.map(JSONText.rounded) ?? "null"),\"instances\":[\(listed)]}"
        }
    }
}

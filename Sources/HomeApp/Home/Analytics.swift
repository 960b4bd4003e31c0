import FeatureToggles
import Reporting

/// Writes report events for a visit: the visitor, the request id and the visitor's A/B group
/// go on every line.
struct Analytics {
    let log: ReportLog
    let decisions: FeatureDecisions
    /// Only the two ids, not the whole visit: the container and every injected closure copy this.
    let visitor: String
    let request: String

    init(log: ReportLog, decisions: FeatureDecisions, visit: Visit) {
        self.log = log
        self.decisions = decisions
        visitor = visit.visitor.id
        request = visit.request.id
    }

    func record(_ name: ReportEvent.Name, layout: String? = nil, item: String? = nil,
                properties: [String: String] = [:]) {
        var properties = properties
        if let experiment = decisions.experimentName, let group = decisions.experimentGroup(for: visitor) {
            properties["experiment"] = experiment
            properties["group"] = group
        }
        log.record(name, layout: layout, item: item, visitor: visitor, request: request,
                   properties: properties)
    }
}

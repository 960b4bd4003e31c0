import FeatureToggles
import Reporting

/// Writes report events for a visit: the visitor, the request id and the visitor's A/B group
/// go on every line.
struct Analytics {
    let log: ReportLog
    let decisions: FeatureDecisions
    let visit: Visit

    func record(_ name: ReportEvent.Name, layout: String? = nil, item: String? = nil,
                properties: [String: String] = [:]) {
        var properties = properties
        if let experiment = decisions.experimentName, let group = decisions.experimentGroup(for: visit.visitor.id) {
            properties["experiment"] = experiment
            properties["group"] = group
        }
        log.record(name, layout: layout, item: item, visitor: visit.visitor.id, request: visit.request.id,
                   properties: properties)
    }
}

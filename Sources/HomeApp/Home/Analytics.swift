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
    /// Where a page being rendered for the cache notes what it reports.
    let trace: EventTrace?

    init(log: ReportLog, decisions: FeatureDecisions, visit: Visit, trace: EventTrace? = nil) {
        self.log = log
        self.decisions = decisions
        visitor = visit.visitor.id
        request = visit.request.id
        self.trace = trace
    }

    func record(_ name: ReportEvent.Name, layout: String? = nil, item: String? = nil,
                properties: [String: String] = [:]) {
        trace?.append(EventTrace.Event(name: name, layout: layout, item: item, properties: properties))
        write(name, layout: layout, item: item, properties: properties)
    }

    /// Reports what a cached page's controllers reported when it was rendered, for this visit.
    func replay(_ events: [EventTrace.Event]) {
        for event in events { write(event.name, layout: event.layout, item: event.item, properties: event.properties) }
    }

    private func write(_ name: ReportEvent.Name, layout: String?, item: String?, properties: [String: String]) {
        var properties = properties
        if let experiment = decisions.experimentName, let group = decisions.experimentGroup(for: visitor) {
            properties["experiment"] = experiment
            properties["group"] = group
        }
        log.record(name, layout: layout, item: item, visitor: visitor, request: request,
                   properties: properties)
    }
}

import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import Reporting

/// Writes report events for a visit: the visitor, the request id and the visitor's group in every
/// active experiment that takes them in (`experiment.<name>`, then with the segments `device` and
/// `cohort`) go on every line; a line whose layout is not the one an experiment assigned (the
/// visitor chose their own) also names the assigned one (`assigned`). Every line of a visitor
/// with a QA override carries `qa=1`, which experiment results leave out.
/// Each event takes from the client's budget (`EventRateLimit`): past it the page is served and
/// the event left out.
struct Analytics {
    let log: ReportLog
    /// The visit's request (for the client's budget and its id), visitor and assigned layout,
    /// not the whole visit: the container and every injected closure copy these references.
    private let visitRequest: Request
    let visitor: VisitorID
    /// The layout an experiment assigned this visitor, if one did.
    let assignedLayout: String?
    /// `experiment.<name>` → group for every experiment the visitor is in, with `device` and
    /// `cohort` when there is one, and `qa`: what every line carries.
    let groups: [String: String]
    /// Where a page being rendered for the cache notes what it reports.
    let trace: EventTrace?
    /// The client's budget of events, taken from as each one is written (nil: unlimited).
    private let limit: EventRateLimit?

    init(log: ReportLog, visit: Visit, limit: EventRateLimit? = nil, trace: EventTrace? = nil) {
        self.log = log
        visitRequest = visit.request
        visitor = visit.visitor.id
        assignedLayout = visit.plan.assignedLayout
        self.limit = limit
        var groups: [String: String] = [:]
        for assignment in visit.plan.assignments { groups[assignment.propertyKey] = assignment.group.name }
        if !groups.isEmpty {
            groups[Self.deviceKey] = visit.device.rawValue
            groups[Self.cohortKey] = visit.cohort.rawValue
        }
        if visit.qa != nil { groups[Self.qaKey] = "1" }
        self.groups = groups
        self.trace = trace
    }

    var request: String { visitRequest.id }

    /// The segment properties results are split by, and the QA mark they leave out.
    static let deviceKey = "device"
    static let cohortKey = "cohort"
    static let qaKey = "qa"

    func record(_ name: ReportEvent.Name, layout: String? = nil, item: String? = nil,
                properties: [String: String] = [:]) {
        trace?.append(EventTrace.Event(name: name, layout: layout, item: item, properties: properties))
        write(name, layout: layout, item: item, properties: properties)
    }

    /// Reports what a cached page's controllers reported when it was rendered, for `visit`: each
    /// line from a template, queued as it is. A visit in no experiment (most) takes the events'
    /// own; one in experiments those of its groups, device and cohort, made at its first visit
    /// (`GroupedTemplates`). Only a QA override's, or groups made for one visitor alone, build the
    /// visit's analytics and each line. `now`: the request's reading of the clock, the events' time.
    static func replay(_ page: PageCache.Page, for visit: Visit, log: ReportLog, limit: EventRateLimit?,
                       at now: Date = Date()) {
        guard visit.qa == nil else { return Analytics(log: log, visit: visit, limit: limit).replay(page.events) }
        guard visit.plan.isAssigned else { return record(page.templates, for: visit, log: log, limit: limit, at: now) }
        guard let identity = visit.plan.sharedIdentity else {
            return Analytics(log: log, visit: visit, limit: limit).replay(page.events)
        }
        if let templates = page.grouped.templates(for: visit, decision: identity) {
            return record(templates, for: visit, log: log, limit: limit, at: now)
        }
        let analytics = Analytics(log: log, visit: visit)
        let templates = page.events.map(analytics.template)
        page.grouped.keep(templates, for: visit)
        record(templates, for: visit, log: log, limit: limit, at: now)
    }

    private static func record(_ templates: [EventTemplate], for visit: Visit, log: ReportLog, limit: EventRateLimit?,
                               at now: Date) {
        let visitor = visit.visitor.id
        // The server's id goes to the log as a value: its line spells it, and no `String` is made here.
        guard let requestID = visit.request.serverID else {
            let request = visit.request.id
            for index in templates.indices {
                if limit?.allowsEvent(from: visit.request, visitor: visitor) == false { continue }
                log.record(templates[index], visitor: visitor, request: request, at: now)
            }
            return
        }
        for index in templates.indices {
            if limit?.allowsEvent(from: visit.request, visitor: visitor) == false { continue }
            log.record(templates[index], visitor: visitor, requestID: requestID, at: now)
        }
    }

    /// The template of `event`'s line for this visit: the event's own when the visit adds nothing.
    func template(_ event: EventTrace.Event) -> EventTemplate {
        groups.isEmpty ? event.template
            : EventTemplate(event.name, layout: event.layout, item: event.item,
                            properties: lineProperties(layout: event.layout, event.properties))
    }

    /// Reports what a cached page's controllers reported when it was rendered, for this visit.
    func replay(_ events: [EventTrace.Event]) {
        // By index: `for event in events` copied each event, every field retained and released.
        for index in events.indices {
            // Without groups a line carries the event's own properties alone (an assigned layout
            // comes with a group): its template's line is the one `write` would make.
            if groups.isEmpty {
                if limit?.allowsEvent(from: visitRequest, visitor: visitor) == false { continue }
                log.record(events[index].template, visitor: visitor, request: request)
            } else {
                let event = events[index]
                write(event.name, layout: event.layout, item: event.item, properties: event.properties)
            }
        }
    }

    /// The line `record` would write, for a caller that records it itself (`POST /report`, which
    /// waits for it to be written).
    func event(_ name: ReportEvent.Name, layout: String? = nil, item: String? = nil,
               properties: [String: String] = [:]) -> ReportEvent {
        ReportEvent(name, layout: layout, item: item, visitor: visitor.text, request: request,
                    properties: lineProperties(layout: layout, properties))
    }

    private func write(_ name: ReportEvent.Name, layout: String?, item: String?, properties: [String: String]) {
        // Through the optional in place: binding it copied the reference (a retain and a release).
        if limit?.allowsEvent(from: visitRequest, visitor: visitor) == false { return }
        log.record(name, layout: layout, item: item, visitor: visitor.text, request: request,
                   properties: lineProperties(layout: layout, properties))
    }

    /// The event's own properties with the visit's experiment groups and assigned layout.
    private func lineProperties(layout: String?, _ properties: [String: String]) -> [String: String] {
        var properties = properties
        // Most events (a home's launch) have none of their own: they share the visit's storage.
        if properties.isEmpty { properties = groups } else if !groups.isEmpty { properties.merge(groups) { own, _ in own } }
        if let assignedLayout, let layout, layout != assignedLayout { properties["assigned"] = assignedLayout }
        return properties
    }
}

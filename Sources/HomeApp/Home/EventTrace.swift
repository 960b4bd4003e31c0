import Reporting

/// The events a home page's controllers reported while it was rendered, without the visit's
/// parts (ids, A/B group). A cached page keeps them, and a hit reports them again for its own
/// visit: the same lines a render would write, without building the controller tree.
final class EventTrace {
    struct Event: Sendable, Equatable {
        let name: ReportEvent.Name
        let layout: String?
        let item: String?
        let properties: [String: String]
    }

    private(set) var events: [Event] = []

    func append(_ event: Event) { events.append(event) }
}

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
        /// The same parts with their pieces of the line encoded once, for the visits whose
        /// events carry nothing more (in no experiment, no QA override).
        let template: EventTemplate

        init(name: ReportEvent.Name, layout: String?, item: String?, properties: [String: String]) {
            self.name = name
            self.layout = layout
            self.item = item
            self.properties = properties
            template = EventTemplate(name, layout: layout, item: item, properties: properties)
        }
    }

    private(set) var events: [Event] = []

    func append(_ event: Event) { events.append(event) }
}

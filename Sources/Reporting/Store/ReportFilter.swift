#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which events a reader returns; nil fields match anything.
public struct ReportFilter: Sendable, Equatable {
    /// Only events with this name.
    public var event: String?
    /// Only events with this layout.
    public var layout: String?
    /// Only events about this item.
    public var item: String?
    /// Only events of this visitor.
    public var visitor: String?
    /// Only events at or after this time.
    public var since: Date?

    /// Creates a filter; the default matches every event.
    public init(event: String? = nil, layout: String? = nil, item: String? = nil, visitor: String? = nil, since: Date? = nil) {
        self.event = event
        self.layout = layout
        self.item = item
        self.visitor = visitor
        self.since = since
    }

    /// True when `event` passes every set field.
    public func matches(_ event: ReportEvent) -> Bool {
        if let name = self.event, event.name.rawValue != name { return false }
        if let layout, event.layout != layout { return false }
        if let item, event.item != item { return false }
        if let visitor, event.visitor != visitor { return false }
        if let since, event.timestamp < since { return false }
        return true
    }
}

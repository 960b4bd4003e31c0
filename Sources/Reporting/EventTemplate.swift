import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An event's fixed parts (name, layout, item, properties) with their pieces of the line encoded
/// once. A cached page reports the same events for every visit, differing only in the time, the
/// visitor and the request: the writer copies these pieces around those three instead of encoding
/// the event again, and its rollups and tallies read the fixed parts from here.
public final class EventTemplate: Sendable, Equatable {
    /// The fixed parts, as an event without a visitor or request (its time unused).
    public let fixed: ReportEvent
    /// The line from the end of the timestamp to the visitor (`ReportEvent.writeFixedHead`).
    private let head: [UInt8]
    /// The line after the request, newline included (`ReportEvent.writeFixedTail`).
    private let tail: [UInt8]
    /// An event's `lineBound` from this template without its visitor's and request's share: the
    /// writer checks it twice an event, and only those two vary.
    let lineBound: Int
    /// The fixed parts carry properties (the rollup's experiment counts and the tallies look at them).
    let hasProperties: Bool

    public init(_ name: ReportEvent.Name, layout: String? = nil, item: String? = nil, properties: [String: String] = [:]) {
        let fixed = ReportEvent(name, layout: layout, item: item, properties: properties)
        self.fixed = fixed
        head = Self.bytes(bound: fixed.jsonLineBound) { fixed.writeFixedHead(into: &$0) }
        tail = Self.bytes(bound: fixed.jsonLineBound) { fixed.writeFixedTail(into: &$0) }
        lineBound = head.count + tail.count + ReportEvent(name).jsonLineBound
        hasProperties = !properties.isEmpty
    }

    /// Writes the line of this event at `ms` for `visitor` and `request` (or `requestID`, whose
    /// text it spells), newline included, at `start` (the second from `timestamps` when it is the
    /// same); returns its length. The same bytes as `ReportEvent.writeJSONLine` of the whole event.
    func writeJSONLine(ms: Int64, visitor: VisitorID?, request: String?, requestID: RequestID? = nil,
                       to start: UnsafeMutablePointer<UInt8>, timestamps: inout TimestampCache) -> Int {
        var out = JSONByteWriter(position: start)
        out.writeTimestamp(ms, cache: &timestamps)
        head.withUnsafeBufferPointer { out.write($0) }
        out.writeIDs(visitor: visitor, request: request, requestID: requestID)
        tail.withUnsafeBufferPointer { out.write($0) }
        return start.distance(to: out.position)
    }

    /// The event this template makes at `timestamp` for `visitor` and `request`, whole.
    public func event(at timestamp: Date = Date(), visitor: VisitorID?, request: String?) -> ReportEvent {
        event(at: timestamp, visitor: visitor?.text, request: request)
    }

    /// The event this template makes at `timestamp` for `visitor` (any text) and `request`, whole.
    public func event(at timestamp: Date = Date(), visitor: String?, request: String?) -> ReportEvent {
        var event = fixed
        event.timestamp = timestamp
        event.visitor = visitor
        event.request = request
        return event
    }

    /// Equal fixed parts (the time is no part of a template).
    public static func == (lhs: EventTemplate, rhs: EventTemplate) -> Bool {
        lhs.fixed.name == rhs.fixed.name && lhs.fixed.layout == rhs.fixed.layout && lhs.fixed.item == rhs.fixed.item
            && lhs.fixed.properties == rhs.fixed.properties
    }

    private static func bytes(bound: Int, _ write: (inout JSONByteWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var out = JSONByteWriter(position: buffer.baseAddress!)
            write(&out)
            count = buffer.baseAddress!.distance(to: out.position)
        }
    }
}

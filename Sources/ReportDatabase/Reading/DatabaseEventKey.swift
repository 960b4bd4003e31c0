import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// Where a row of `report_events` stands in the one order every server agrees on: its time, then
/// instance, segment and offset (names compared byte by byte, as `COLLATE "C"` does). Each
/// instance's rows only grow in it, so it can name a point of the shared stream from any server.
public struct DatabaseEventKey: Sendable, Comparable, CustomStringConvertible {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`: in this fixed form, text order is time order.
    public let time: String
    public let instance: String
    public let segment: String
    public let offset: Int64

    public init(time: String, instance: String, segment: String, offset: Int64) {
        self.time = time
        self.instance = instance
        self.segment = segment
        self.offset = offset
    }

    /// The key before every row at `time` or later.
    public static func before(_ time: String) -> DatabaseEventKey {
        DatabaseEventKey(time: time, instance: "", segment: "", offset: -1)
    }

    /// As a server-sent event's `id:`: `time/instance/segment/offset`, the names percent-encoded
    /// (so the id holds no `/`, newline or other control character of theirs).
    public var description: String {
        "\(time)/\(Self.encode(instance))/\(Self.encode(segment))/\(offset)"
    }

    /// Reads an id this stream sent, or a `before` key as `/reports` names where its rows end
    /// (`time///-1`); nil for anything else.
    public init?(id: String) {
        guard id.utf8.count <= 1024 else { return nil }
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, let date = ReportTimestamp.parse(String(parts[0])),
              ReportTimestamp.string(from: date) == parts[0] else { return nil }
        if parts[1].isEmpty, parts[2].isEmpty, parts[3] == "-1" {
            self = .before(String(parts[0]))
            return
        }
        guard let instance = PercentEncoding.decode(parts[1]), !instance.isEmpty,
              let segment = PercentEncoding.decode(parts[2]), !segment.isEmpty,
              let offset = Int64(parts[3]), offset >= 0 else { return nil }
        self.init(time: String(parts[0]), instance: instance, segment: segment, offset: offset)
    }

    public static func < (a: DatabaseEventKey, b: DatabaseEventKey) -> Bool {
        if a.time != b.time { return a.time.utf8.lexicographicallyPrecedes(b.time.utf8) }
        if a.instance != b.instance { return a.instance.utf8.lexicographicallyPrecedes(b.instance.utf8) }
        if a.segment != b.segment { return a.segment.utf8.lexicographicallyPrecedes(b.segment.utf8) }
        return a.offset < b.offset
    }

    private static func encode(_ name: String) -> String {
        PercentEncoding.encode(name) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: ":") }
    }
}

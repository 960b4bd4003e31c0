/// How far an instance's log has been shipped: the segment's name (without `.gz`) and the
/// uncompressed byte offset just after the last line shipped. Ordered as the log is written.
public struct ShipPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var segment: String
    public var offset: Int64

    public init(segment: String, offset: Int64) {
        self.segment = segment
        self.offset = offset
    }

    /// Before every segment: nothing shipped yet.
    public static let start = ShipPosition(segment: "", offset: 0)

    public static func < (a: ShipPosition, b: ShipPosition) -> Bool {
        (a.segment, a.offset) < (b.segment, b.offset)
    }

    public var description: String { "\(segment):\(offset)" }
}

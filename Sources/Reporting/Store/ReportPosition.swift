/// A position in the store for newest-first paging: the byte offset of a line within a segment.
/// Its text form (`segment:offset`) goes into "Older events" links and round-trips. `start`, before
/// every line, is where a watcher of a log that holds none yet resumes.
public struct ReportPosition: Sendable, Hashable, LosslessStringConvertible {
    /// Before the first line the log will hold: a watcher resuming after it gets every line.
    public static let start = ReportPosition(segment: "", offset: -1)

    /// The segment's time stamp, as in its file name (`20261124T141500.123Z`).
    let segment: String
    /// The byte offset of a line in the segment's uncompressed text.
    let offset: Int64

    init(segment: String, offset: Int64) {
        self.segment = segment
        self.offset = offset
    }

    /// Parses `segment:offset`; nil if malformed.
    public init?(_ description: String) {
        if description == Self.startText {
            self = .start
            return
        }
        guard let colon = description.lastIndex(of: ":"), let offset = Int64(description[description.index(after: colon)...]),
            offset >= 0
        else { return nil }
        let segment = String(description[..<colon])
        guard SegmentName.milliseconds(stamp: segment) != nil else { return nil }
        self.segment = segment
        self.offset = offset
    }

    public var description: String { self == .start ? Self.startText : "\(segment):\(offset)" }

    private static let startText = "start"
}

/// Segment file names: `events-YYYYMMDDTHHMMSS.mmmZ.jsonl`, `.jsonl.gz` once compressed, and the
/// rollup beside it `events-….rollup`. Names sort by time as plain strings.
enum SegmentName {
    static let prefix = "events-"
    static let plain = ".jsonl"
    static let compressed = ".jsonl.gz"
    static let rollup = ".rollup"
    static let temporary = ".tmp"
    static let index = ".gzi"
    static let visitors = ".visitors"
    static let members = ".members"
    static let visitorIndex = ".vix"

    /// The stamp part for a time in epoch milliseconds: `20261124T141500.123Z`.
    static func stamp(milliseconds ms: Int64) -> String {
        let days = ReportTimestamp.floorDiv(ms, ReportTimestamp.msPerDay)
        let (year, month, day) = ReportTimestamp.civil(fromDays: days)
        let msOfDay = ms - days * ReportTimestamp.msPerDay
        let seconds = msOfDay / 1000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = msOfDay % 1000
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(year)\(two(Int64(month)))\(two(Int64(day)))T\(two(seconds / 3600))\(two(seconds / 60 % 60))\(two(seconds % 60)).\(fraction)Z"
    }

    /// Epoch milliseconds of a stamp; nil if it is not one.
    static func milliseconds(stamp: String) -> Int64? {
        let bytes = Array(stamp.utf8)
        guard bytes.count == 20, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "."), bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        var iso = Array("0000-00-00T00:00:00.000Z".utf8)
        let map = [(0, 0, 4), (4, 5, 2), (6, 8, 2), (9, 11, 2), (11, 14, 2), (13, 17, 2), (16, 20, 3)]
        for (from, to, count) in map {
            for index in 0..<count {
                let byte = bytes[from + index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                iso[to + index] = byte
            }
        }
        return iso.withUnsafeBufferPointer { ReportTimestamp.parseMilliseconds($0) }
    }

    /// The stamp of a segment data file name (plain or compressed), or nil.
    static func stamp(ofDataFile name: String) -> (stamp: String, compressed: Bool)? {
        guard name.hasPrefix(prefix) else { return nil }
        let compressed = name.hasSuffix(Self.compressed)
        guard compressed || name.hasSuffix(plain) else { return nil }
        let stamp = String(name.dropFirst(prefix.count).dropLast(compressed ? Self.compressed.count : plain.count))
        return milliseconds(stamp: stamp) == nil ? nil : (stamp, compressed)
    }

    static func dataFile(_ stamp: String, compressed: Bool) -> String {
        prefix + stamp + (compressed ? Self.compressed : plain)
    }

    static func rollupFile(_ stamp: String) -> String { prefix + stamp + rollup }

    static func indexFile(_ stamp: String) -> String { prefix + stamp + index }

    static func visitorsFile(_ stamp: String) -> String { prefix + stamp + visitors }

    static func membersFile(_ stamp: String) -> String { prefix + stamp + members }

    static func visitorIndexFile(_ stamp: String) -> String { prefix + stamp + visitorIndex }
}

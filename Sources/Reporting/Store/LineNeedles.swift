#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte patterns a line must contain to match a filter, checked before a line is parsed: the
/// writer's lines are canonical, so `"visitor":"v-1"` appears exactly so in every match.
struct LineNeedles {
    var needles: [[UInt8]] = []

    init(_ filter: ReportFilter) {
        for (key, value) in [("event", filter.event), ("layout", filter.layout), ("item", filter.item), ("visitor", filter.visitor)] {
            guard let value else { continue }
            var needle = Array("\"\(key)\":\"".utf8)
            needle += Self.escaped(value)
            needle.append(UInt8(ascii: "\""))
            needles.append(needle)
        }
    }

    /// `value` as a canonical line spells it between its quotes.
    static func escaped(_ value: String) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: value.utf8.count * 6 + 1) { scratch in
            var writer = JSONByteWriter(position: scratch.baseAddress!)
            writer.writeEscaped(value)
            return Array(UnsafeBufferPointer(start: scratch.baseAddress!, count: scratch.baseAddress!.distance(to: writer.position)))
        }
    }

    /// Whether `needle` occurs in `haystack`: memchr for its second byte, memcmp for the rest. The
    /// second byte is a key's first letter, a few times a line; the first, a quote, is every few bytes.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard needle.count > 1 else { return needle.isEmpty || haystack.contains(needle[0]) }
        return find(needle, in: haystack, from: 0) != nil
    }

    /// Where `needle` (two bytes or more) first occurs in `haystack` at or after `from`.
    static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard needle.count > 1, haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
        let anchor = Int32(needle[1])
        var offset = from + 1
        let last = haystack.count - needle.count + 1
        while offset <= last, let found = memchr(base + offset, anchor, last - offset + 1) {
            let at = base.distance(to: UnsafeRawPointer(found)) - 1
            if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return at }
            offset = at + 2
        }
        return nil
    }

    func mayMatch(_ line: ArraySlice<UInt8>) -> Bool {
        guard !needles.isEmpty else { return true }
        return line.withUnsafeBytes { haystack in
            needles.allSatisfy { needle in
                needle.withUnsafeBytes { Self.contains(haystack, $0) }
            }
        }
    }
}

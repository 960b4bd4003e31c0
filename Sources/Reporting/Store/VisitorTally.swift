#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The distinct visitors of matching report lines, counted without parsing the lines the writer
/// spelled: a filtered view's visitors are read from every matching line, and parsing each cost
/// as much as the rest of the page. Ids are kept as 128-bit hashes (two seeded hashers): a
/// collision among even a billion ids is about 10^-21 likely, so the count is exact in practice.
struct VisitorTally {
    private struct Key: Hashable {
        let first: Int
        let second: Int
    }

    /// What `add` made of a line.
    enum Outcome {
        /// It matched, and its visitor (if any) is counted.
        case counted
        /// It does not match.
        case skipped
        /// It is not as the writer spells lines (an escape in its visitor): parse it.
        case unsure
    }

    private var seen = Set<Key>()
    private static let visitorKey = Array(#""visitor":""#.utf8)
    private static let propertiesKey = Array(#""properties":{"#.utf8)

    var count: Int { seen.count }

    /// Counts the line's visitor if every needle is one of its own fields: the writer puts the
    /// fields in a fixed order with `properties` last, so a needle found after that key is inside
    /// a property, not the field.
    mutating func add(_ line: ArraySlice<UInt8>, needles: LineNeedles) -> Outcome {
        line.withUnsafeBytes { bytes -> Outcome in
            let top = Self.propertiesKey.withUnsafeBytes { LineNeedles.find($0, in: bytes, from: 0) } ?? bytes.count
            for needle in needles.needles {
                guard let at = needle.withUnsafeBytes({ LineNeedles.find($0, in: bytes, from: 0) }), at < top else { return .skipped }
            }
            guard let at = Self.visitorKey.withUnsafeBytes({ LineNeedles.find($0, in: bytes, from: 0) }), at < top else {
                return .counted  // no visitor
            }
            let start = at + Self.visitorKey.count
            guard start < bytes.count, let quote = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\"")), bytes.count - start)
            else { return .unsure }
            let value = UnsafeRawBufferPointer(rebasing: bytes[start..<bytes.baseAddress!.distance(to: UnsafeRawPointer(quote))])
            guard !value.contains(UInt8(ascii: "\\")) else { return .unsure }
            insert(value)
            return .counted
        }
    }

    /// Counts a visitor read from a parsed line.
    mutating func insert(_ visitor: String) {
        var copy = visitor
        copy.withUTF8 { insert(UnsafeRawBufferPointer($0)) }
    }

    private mutating func insert(_ bytes: UnsafeRawBufferPointer) {
        var first = Hasher(), second = Hasher()
        first.combine(0 as UInt8)
        second.combine(1 as UInt8)
        first.combine(bytes: bytes)
        second.combine(bytes: bytes)
        seen.insert(Key(first: first.finalize(), second: second.finalize()))
    }
}

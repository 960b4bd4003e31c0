import Basics

/// Splits a raw request path into percent-decoded segments.
///
/// libmicrohttpd hands handlers an already-unescaped path, which hides `%2F` and `%2e%2e`;
/// the server keeps the raw URI and decodes it here, so routes and static files see exactly
/// which segment a byte came from.
public enum PathDecoding {
    /// A segment that cannot stand for itself: it decodes to `.`, `..`, or holds `/`, `\` or NUL.
    public static func isTraversal(_ segment: String) -> Bool {
        segment == "." || segment == ".." || segment.utf8.contains { $0 == 0x2F || $0 == 0x5C || $0 == 0 }
    }

    /// The decoded segments of `rawPath` (no query), or nil when an escape is malformed or the
    /// result is not UTF-8. `/` has none; an empty segment (`//`, a trailing `/`) is kept as `""`,
    /// so such a path matches no route rather than quietly standing for another.
    public static func segments(of rawPath: Substring) -> [String]? {
        var path = rawPath
        return path.withUTF8(segments(in:))
    }

    /// The same over the path's bytes: the request's are read in place from its target.
    static func segments(in bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        guard !(bytes.count == 1 && bytes[0] == slash) else { return [] }
        var result: [String] = []
        // What precedes the first `/` is not a segment (origin-form targets start with one).
        guard var start = bytes.firstIndex(of: slash).map({ $0 + 1 }) else { return [] }
        while true {
            let end = bytes[start...].firstIndex(of: slash) ?? bytes.endIndex
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
            // Cut from a String at an ASCII `/`, an unescaped segment is already valid UTF-8.
            guard let decoded = raw.contains(percent) ? percentDecode(raw) : String(decoding: raw, as: UTF8.self)
            else { return nil }
            result.append(decoded)
            guard end != bytes.endIndex else { return result }
            start = end + 1
        }
    }

    private static let slash = UInt8(ascii: "/"), percent = UInt8(ascii: "%")

    /// Decodes `%XX` escapes; `+` stays `+` (it means space only in query strings and forms).
    public static func percentDecode<C: Collection<UInt8>>(_ bytes: C) -> String? {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(validating: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "%") else { out.append(byte); continue }
            guard index != bytes.endIndex, let high = PercentEncoding.hexValue(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            guard index != bytes.endIndex, let low = PercentEncoding.hexValue(bytes[index]) else { return nil }
            index = bytes.index(after: index)
            out.append(high << 4 | low)
        }
        return String(validating: out, as: UTF8.self)
    }

    /// Whether every `%` starts a two-digit hex escape other than `%00`. The query decoder, like
    /// libmicrohttpd's before it, passes a malformed escape through as text, so the server checks
    /// the raw query first; NUL has no place in a value.
    public static func hasWellFormedEscapes<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        bytes.withContiguousStorageIfAvailable(hasWellFormedEscapes) ?? Array(bytes).withUnsafeBufferPointer(hasWellFormedEscapes)
    }

    static func hasWellFormedEscapes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while let percent = bytes.firstOffset(of: UInt8(ascii: "%"), in: index..<bytes.count) {
            guard percent + 2 < bytes.count, let high = PercentEncoding.hexValue(bytes[percent + 1]), let low = PercentEncoding.hexValue(bytes[percent + 2]),
                  high | low != 0
            else { return false }
            index = percent + 3
        }
        return true
    }
}

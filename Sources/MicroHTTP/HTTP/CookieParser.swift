import Glibc

/// Reads a `Cookie` request header (RFC 6265 §5.4): `name=value` pairs split on `;`.
/// Malformed pairs are skipped rather than failing the request; the first of duplicate names wins,
/// as browsers send the most specific cookie first.
public enum CookieParser {
    /// At most this many well-formed pairs are read from one header, so a cookie flood costs
    /// bounded work.
    public static let maximumCount = 64

    /// Every cookie, the first of duplicate names winning.
    public static func parse(_ header: String) -> [String: String] {
        var cookies: [String: String] = [:]
        var text = header
        text.withUTF8 { bytes in
            forEachPair(in: bytes) { name, value in
                let key = string(bytes, name)
                if cookies[key] == nil { cookies[key] = string(bytes, value) }
                return true
            }
        }
        return cookies
    }

    /// The value of the first cookie called `name`; compares bytes and allocates only the response.
    public static func value(of name: String, in header: String) -> String? {
        // Read in place (a copy for `withUTF8` costs a retain and a release of each).
        let inPlace = header.utf8.withContiguousStorageIfAvailable { bytes in
            name.utf8.withContiguousStorageIfAvailable { value(of: $0, in: bytes) }
        }
        // Both strings contiguous: the response, found or not.
        if case .some(.some(let found)) = inPlace { return found }
        var text = header, wanted = name
        return text.withUTF8 { bytes in wanted.withUTF8 { value(of: $0, in: bytes) } }
    }

    /// The value of the first cookie called `name` in a header's bytes.
    public static func value(of name: String, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ value(of: $0, in: bytes) }) { return found }
        var wanted = name
        return wanted.withUTF8 { value(of: $0, in: bytes) }
    }

    private static func value(of wanted: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var found: String?
        forEachPair(in: bytes) { name, value in
            guard name.count == wanted.count, memcmp(bytes.baseAddress! + name.lowerBound, wanted.baseAddress!, name.count) == 0
            else { return true }
            found = string(bytes, value)
            return false
        }
        return found
    }

    /// Where the value of the first cookie called `name` is in a header's bytes: the pair
    /// `forEachPair` would find. `name` must be a token; a pair with exactly its bytes is one
    /// then, and its name is not checked byte by byte again (only the pairs before it are, as
    /// they count towards `maximumCount`).
    static func valueRange(of name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = bytes.baseAddress else { return nil }
        var start = 0, read = 0
        while start < bytes.count, read < maximumCount {
            let end = bytes.firstOffset(of: UInt8(ascii: ";"), in: start..<bytes.count) ?? bytes.count
            defer { start = end + 1 }
            guard let equals = bytes.firstOffset(of: UInt8(ascii: "="), in: start..<end) else { continue }
            let pair = trimmed(bytes, start..<equals)
            let named = pair.count == name.utf8CodeUnitCount && memcmp(base + pair.lowerBound, name.utf8Start, pair.count) == 0
            guard named || (!pair.isEmpty && isToken(base, pair)) else { continue }
            read += 1
            guard named else { continue }
            return unquoted(bytes, trimmed(bytes, equals + 1..<end))
        }
        return nil
    }

    /// `range` without the double quotes around it, if it has them.
    private static func unquoted(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""),
              bytes[range.upperBound - 1] == UInt8(ascii: "\"") else { return range }
        return range.lowerBound + 1..<range.upperBound - 1
    }

    /// Calls `body` with the name and value ranges of each well-formed pair, in order, until it
    /// returns false or `maximumCount` pairs were read. Values lose their quotes.
    static func forEachPair(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Range<Int>) -> Bool) {
        guard let base = bytes.baseAddress else { return }
        var start = 0, read = 0
        while start < bytes.count, read < maximumCount {
            let end = bytes.firstOffset(of: UInt8(ascii: ";"), in: start..<bytes.count) ?? bytes.count
            defer { start = end + 1 }
            guard let equals = bytes.firstOffset(of: UInt8(ascii: "="), in: start..<end) else { continue }
            let name = trimmed(bytes, start..<equals)
            guard !name.isEmpty, isToken(base, name) else { continue }
            let value = unquoted(bytes, trimmed(bytes, equals + 1..<end))
            read += 1
            guard body(name, value) else { return }
        }
    }

    /// Token bytes are ASCII; a value was cut from a String at ASCII bytes, so it is UTF-8.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var range = range
        while let first = range.first, bytes[first] == 0x20 || bytes[first] == 0x09 { range = first + 1..<range.upperBound }
        while !range.isEmpty, bytes[range.upperBound - 1] == 0x20 || bytes[range.upperBound - 1] == 0x09 {
            range = range.lowerBound..<range.upperBound - 1
        }
        return range
    }

    /// RFC 7230 token characters as one bit per ASCII byte: `!#$%&'*+-.^_`|~`, digits and letters.
    private static let tokenBits: (low: UInt64, high: UInt64) = (0x03FF_6CFA_0000_0000, 0x57FF_FFFF_C7FF_FFFE)

    private static func isToken(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Bool {
        for index in range {
            let byte = base[index]
            guard byte < 128, (byte < 64 ? tokenBits.low : tokenBits.high) >> UInt64(byte & 63) & 1 == 1 else { return false }
        }
        return true
    }
}

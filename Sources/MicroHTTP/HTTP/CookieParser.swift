/// Parses a `Cookie` request header (RFC 6265 §5.4): `name=value` pairs split on `;`.
/// Malformed pairs are skipped rather than failing the request; the first of duplicate names wins,
/// as browsers send the most specific cookie first.
public enum CookieParser {
    /// At most this many cookies are read from one header, so a cookie flood costs bounded work.
    public static let maximumCount = 64

    public static func parse(_ header: String) -> [String: String] {
        var cookies: [String: String] = [:]
        for pair in header.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true) {
            guard cookies.count < maximumCount else { break }
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = trimmed(pair[pair.startIndex..<equals])
            var value = trimmed(pair[pair.index(after: equals)...])
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else { continue }
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = value.dropFirst().dropLast()
            }
            guard let name = String(validating: name, as: UTF8.self),
                  let text = String(validating: value, as: UTF8.self) else { continue }
            if cookies[name] == nil { cookies[name] = text }
        }
        return cookies
    }

    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x30...0x39, 0x41...0x5A, 0x5E...0x7A, 0x7C, 0x7E:
            true
        default:
            false
        }
    }
}

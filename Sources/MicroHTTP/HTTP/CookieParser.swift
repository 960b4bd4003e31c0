/// Parses a `Cookie` request header (RFC 6265 §5.4): `name=value` pairs split on `;`.
/// Malformed pairs are skipped rather than failing the request; the first of duplicate names wins,
/// as browsers send the most specific cookie first.
public enum CookieParser {
    /// At most this many cookies are read from one header, so a cookie flood costs bounded work.
    public static let maximumCount = 64

    public static func parse(_ header: String) -> [String: String] {
        var text = header
        return text.withUTF8 { bytes in
            // Sized up front: growing a dictionary pair by pair rehashes it at every step.
            let pairs = bytes.reduce(1) { $1 == UInt8(ascii: ";") ? $0 + 1 : $0 }
            var cookies = [String: String](minimumCapacity: min(pairs, maximumCount))
            var start = 0
            while start < bytes.count, cookies.count < maximumCount {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
                defer { start = end + 1 }
                guard let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = trimmed(bytes, start..<equals)
                var value = trimmed(bytes, equals + 1..<end)
                guard !name.isEmpty, bytes[name].allSatisfy(isTokenByte) else { continue }
                if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""), bytes[value.upperBound - 1] == UInt8(ascii: "\"") {
                    value = value.lowerBound + 1..<value.upperBound - 1
                }
                // Token bytes are ASCII; the value was cut from a String at ASCII bytes, so it is UTF-8.
                let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
                if cookies[key] == nil {
                    cookies[key] = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                }
            }
            return cookies
        }
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var range = range
        while let first = range.first, bytes[first] == 0x20 || bytes[first] == 0x09 { range = first + 1..<range.upperBound }
        while !range.isEmpty, bytes[range.upperBound - 1] == 0x20 || bytes[range.upperBound - 1] == 0x09 {
            range = range.lowerBound..<range.upperBound - 1
        }
        return range
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

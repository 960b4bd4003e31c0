import Glibc

/// The `Date` header's value (RFC 9110 §5.6.7, IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`),
/// written without a locale. A response kept with a page copy carries one of its own, made
/// again only when the second changes; libmicrohttpd would otherwise format it for every
/// response, with `gmtime_r` under the C library's time zone lock.
enum HTTPDate {
    /// The bytes of every value.
    static let count = 29

    /// Writes the value for `seconds` since 1970 at `out` (`count` bytes, no NUL).
    static func write(_ seconds: Int, to out: UnsafeMutablePointer<CChar>) {
        var time = time_t(seconds), parts = tm()
        gmtime_r(&time, &parts)
        let days = "SunMonTueWedThuFriSat", months = "JanFebMarAprMayJunJulAugSepOctNovDec"
        var at = 0
        func put<S: Sequence<UInt8>>(_ bytes: S) {
            for byte in bytes {
                out[at] = CChar(bitPattern: byte)
                at += 1
            }
        }
        func two(_ value: Int32) { put([UInt8(48 + value / 10), UInt8(48 + value % 10)]) }
        put(days.utf8.dropFirst(3 * Int(parts.tm_wday)).prefix(3))
        put(", ".utf8)
        two(parts.tm_mday)
        put(" ".utf8)
        put(months.utf8.dropFirst(3 * Int(parts.tm_mon)).prefix(3))
        put(" ".utf8)
        let year = parts.tm_year + 1900
        two(year / 100)
        two(year % 100)
        put(" ".utf8)
        two(parts.tm_hour)
        put(":".utf8)
        two(parts.tm_min)
        put(":".utf8)
        two(parts.tm_sec)
        put(" GMT".utf8)
    }

    /// The value for `seconds`, as a string (for headers added once, and tests).
    static func text(_ seconds: Int) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: count) { buffer in
            write(seconds, to: buffer.baseAddress!)
            return String(decoding: UnsafeRawBufferPointer(buffer), as: UTF8.self)
        }
    }
}

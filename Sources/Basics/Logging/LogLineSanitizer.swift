/// Makes text safe to write into a line-oriented log: a request can put anything into a path,
/// a query or a header, and a logged newline would start a forged line, an ESC byte would reach
/// the terminal of whoever reads the log.
public enum LogLineSanitizer {
    /// The most UTF-8 bytes kept of one message or metadata value.
    public static let maximumValueBytes = 300

    /// `text` with every control character (C0, DEL, C1), line and paragraph separator and
    /// bidirectional override written as an escape (`\n`, `\e`, `\u{202E}`), a backslash as `\\`,
    /// and cut to `maximumValueBytes` with a note of how much was left out.
    public static func clean(_ text: String, maximumBytes: Int = maximumValueBytes) -> String {
        if text.utf8.count <= maximumBytes, !text.utf8.contains(where: needsLook) { return text }
        var out = ""
        out.reserveCapacity(min(text.utf8.count, maximumBytes) + 16)
        var kept = 0
        for scalar in text.unicodeScalars {
            let piece = escape(scalar)
            guard kept + piece.utf8.count <= maximumBytes else {
                out += "…(cut at \(maximumBytes) bytes of \(text.utf8.count))"
                return out
            }
            out += piece
            kept += piece.utf8.count
        }
        return out
    }

    /// Bytes that may start something to escape: ASCII controls, backslash, and every non-ASCII
    /// byte (C1 controls and the separators and overrides are multi-byte).
    private static func needsLook(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F || byte == 0x5C || byte >= 0x80 }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x1B: return "\\e"
        case 0x5C: return "\\\\"
        case _ where scalar.isInvisibleControl:
            return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default:
            return String(scalar)
        }
    }
}

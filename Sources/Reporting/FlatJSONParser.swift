#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A minimal strict JSON scanner over one line's bytes.
struct FlatJSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    func error(_ reason: String, at position: Int? = nil) -> ReportDecodingError {
        ReportDecodingError(reason: reason, position: position ?? index)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            index += 1
        }
    }

    mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of line (torn?)") }
        guard bytes[index] == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    /// Parses `{ "key": value, … }`, handing each key to `member`, which must consume the value.
    mutating func object(_ member: (inout FlatJSONParser, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        repeat {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of line (torn?)") }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "}") { return }
            guard bytes[index - 1] == UInt8(ascii: ",") else { throw error("expected ',' or '}'", at: index - 1) }
        } while true
    }

    mutating func stringObject() throws -> [String: String] {
        var result: [String: String] = [:]
        try object { parser, key in result[key] = try parser.string() }
        return result
    }

    mutating func end() throws {
        skipWhitespace()
        guard index == bytes.count else { throw error("trailing bytes after the object") }
    }

    mutating func string() throws -> String { try string(timestamp: false).text }

    /// Reads a string value; with `timestamp`, parses it as one instead of building a String.
    mutating func string(timestamp: Bool) throws -> (text: String, ms: Int64?) {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if timestamp { return ("", ReportTimestamp.parseMilliseconds(raw)) }
                guard let text = Self.validatedString(raw) else { throw error("invalid UTF-8", at: start) }
                return (text, nil)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string (torn?)") }
        var decoded = Array(bytes[start..<index])
        try unescape(into: &decoded)
        if timestamp { return ("", decoded.withUnsafeBufferPointer { ReportTimestamp.parseMilliseconds($0) }) }
        guard let text = decoded.withUnsafeBufferPointer(Self.validatedString) else { throw error("invalid UTF-8", at: start) }
        return (text, nil)
    }

    /// The bytes as a String if they are valid UTF-8. ASCII, the usual case, skips the generic
    /// validator, whose metadata lookups dominated profiles of whole-file scans.
    static func validatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Continues a string that contains escapes, from the first backslash to the closing quote.
    mutating func unescape(into decoded: inout [UInt8]) throws {
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw error("unterminated string (torn?)") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"): decoded.append(contentsOf: try unicodeEscape())
                default: throw error("bad escape", at: index - 1)
                }
            default:
                guard byte >= 0x20 else { throw error("control character in string", at: index - 1) }
                decoded.append(byte)
            }
        }
        throw error("unterminated string (torn?)")
    }

    /// Reads the hex digits after `\u` (and a low surrogate's `\uXXXX` if needed); returns UTF-8.
    mutating func unicodeEscape() throws -> [UInt8] {
        var value = try hex4()
        if (0xD800..<0xDC00).contains(value) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("lone surrogate") }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("lone surrogate") }
        return Array(String(Character(scalar)).utf8)
    }

    mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - 55
            default: throw error("bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

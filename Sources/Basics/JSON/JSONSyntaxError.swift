#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a JSON text is broken and why, as a person editing the file looks for it: a line and a
/// column (counted in characters, both from 1), e.g. `line 3, column 12: expected ',' or '}'`.
/// Foundation's parser only says "around character 412", a byte offset.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { "line \(line), column \(column): \(reason)" }

    /// The first syntax error in `data` (RFC 8259, a leading UTF-8 byte order mark allowed), or nil
    /// when it is well-formed JSON.
    public static func find(in data: Data) -> JSONSyntaxError? {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes)
        guard let (offset, reason) = scanner.firstError() else { return nil }
        // The line and column of a byte offset, counting characters, not bytes, in the line.
        let before = bytes[..<min(offset, bytes.count)]
        let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
        let line = before.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return JSONSyntaxError(line: line, column: column, reason: reason)
    }
}

/// A validating pass over JSON, without building anything: nested containers on a stack of its
/// own, so deep nesting cannot overflow the thread's.
private struct Scanner {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    private enum Container: CustomStringConvertible {
        case object, array
        var close: UInt8 { self == .object ? UInt8(ascii: "}") : UInt8(ascii: "]") }
        var description: String { self == .object ? "object" : "list" }
    }

    mutating func firstError() -> (Int, String)? {
        var stack: [Container] = []
        var valueNext = true
        while true {
            skipSpace()
            if valueNext {
                guard offset < bytes.count else { return (offset, "the file ends where a value was expected") }
                let opening = bytes[offset]
                if opening == UInt8(ascii: "{") || opening == UInt8(ascii: "[") {
                    let container: Container = opening == UInt8(ascii: "{") ? .object : .array
                    offset += 1
                    skipSpace()
                    if offset < bytes.count, bytes[offset] == container.close {
                        offset += 1
                        valueNext = false
                    } else {
                        stack.append(container)
                        if container == .object, let error = key() { return error }
                    }
                    continue
                }
                if let error = scalar() { return error }
                valueNext = false
                continue
            }
            // After a value: the end, or what its container allows next.
            guard let container = stack.last else {
                return offset < bytes.count ? (offset, "unexpected \(shown) after the end of the JSON value") : nil
            }
            let close = Character(Unicode.Scalar(container.close))
            guard offset < bytes.count else { return (offset, "the file ends before the \(container) is closed with '\(close)'") }
            if bytes[offset] == container.close {
                offset += 1
                stack.removeLast()
                continue
            }
            guard bytes[offset] == UInt8(ascii: ",") else { return (offset, "expected ',' or '\(close)', not \(shown)") }
            offset += 1
            skipSpace()
            if offset < bytes.count, bytes[offset] == container.close { return (offset, "a ',' must be followed by another entry") }
            if container == .object, let error = key() { return error }
            valueNext = true
        }
    }

    /// A string, a number, true, false or null.
    private mutating func scalar() -> (Int, String)? {
        switch bytes[offset] {
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default:
            for word in ["true", "false", "null"] where bytes[offset...].starts(with: word.utf8) {
                offset += word.utf8.count
                return nil
            }
            return (offset, "expected a value (a string in double quotes, a number, true, false, null, [ or {), not \(shown)")
        }
    }

    /// A key in double quotes and its colon; the value is read next.
    private mutating func key() -> (Int, String)? {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            return (offset, offset < bytes.count ? "expected a key in double quotes, not \(shown)" : "the file ends where a key was expected")
        }
        if let error = string() { return error }
        skipSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return (offset, "expected ':' after the key, not \(shown)") }
        offset += 1
        return nil
    }

    private mutating func string() -> (Int, String)? {
        let start = offset
        offset += 1
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return nil
            case UInt8(ascii: "\\"):
                let escape = offset
                offset += 1
                guard offset < bytes.count else { break }
                if bytes[offset] == UInt8(ascii: "u") {
                    let hex = bytes[(offset + 1)...].prefix(4)
                    guard hex.count == 4, hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
                        return (escape, "\\u must be followed by four hexadecimal digits")
                    }
                    offset += 5
                } else if "\"\\/bfnrt".utf8.contains(bytes[offset]) {
                    offset += 1
                } else {
                    return (escape, #"unknown escape: after a backslash JSON allows " \ / b f n r t, or u and four hexadecimal digits"#)
                }
            case 0..<0x20:
                return (offset, byte == UInt8(ascii: "\n") ? "the string opened at column \(column(of: start)) has no closing '\"' on its line"
                                                          : "a control character must be escaped inside a string")
            default:
                offset += 1
            }
        }
        return (start, "the string has no closing '\"'")
    }

    private mutating func number() -> (Int, String)? {
        let start = offset
        func digits() -> Int {
            let from = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            return offset - from
        }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let whole = offset
        guard digits() > 0 else { return (start, "a number needs digits after '-'") }
        if bytes[whole] == UInt8(ascii: "0"), offset - whole > 1 { return (start, "a number cannot start with 0") }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { return (start, "a number needs digits after '.'") }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { return (start, "a number needs digits in its exponent") }
        }
        return nil
    }

    private mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    /// The character at `offset`, quoted, for messages.
    private var shown: String {
        guard offset < bytes.count else { return "the end of the file" }
        let scalar = String(decoding: bytes[offset...].prefix(4), as: UTF8.self).unicodeScalars.first ?? "?"
        return scalar.properties.generalCategory == .control ? "a control character" : "'\(scalar)'"
    }

    private func column(of index: Int) -> Int {
        let lineStart = (bytes[..<index].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
        return String(decoding: bytes[lineStart..<index], as: UTF8.self).count + 1
    }
}

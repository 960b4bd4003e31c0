import Foundation

extension ReportEvent {
    /// The event as one JSON line in DESIGN.md key order, without the trailing newline.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the event's JSON line, newline included, to `buffer` (the log's hot path: no JSONEncoder).
    public func appendJSONLine(to buffer: inout [UInt8]) {
        JSONBytes.append(#"{"timestamp":""#, to: &buffer)
        ReportTimestamp.append(ReportTimestamp.milliseconds(timestamp), to: &buffer)
        JSONBytes.append(#"","event":""#, to: &buffer)
        JSONBytes.appendEscaped(name.rawValue, to: &buffer)
        if let layout { JSONBytes.appendField(#"","layout":""#, layout, to: &buffer) }
        if let item { JSONBytes.appendField(#"","item":""#, item, to: &buffer) }
        if let visitor { JSONBytes.appendField(#"","visitor":""#, visitor, to: &buffer) }
        if let request { JSONBytes.appendField(#"","request":""#, request, to: &buffer) }
        if !properties.isEmpty {
            JSONBytes.append(#"","properties":{"#, to: &buffer)
            var first = true
            // Sorted so that equal events give equal lines.
            for key in properties.keys.sorted() {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                buffer.append(JSONBytes.quote)
                JSONBytes.appendEscaped(key, to: &buffer)
                JSONBytes.append(#"":""#, to: &buffer)
                JSONBytes.appendEscaped(properties[key]!, to: &buffer)
                buffer.append(JSONBytes.quote)
            }
            JSONBytes.append("}}\n", to: &buffer)
        } else {
            JSONBytes.append("\"}\n", to: &buffer)
        }
    }
}

/// Byte-level JSON writing helpers for the report line format. The fixed parts are
/// `StaticString`s, appended straight from the binary: no array to look up, retain or release.
enum JSONBytes {
    static let quote = UInt8(ascii: "\"")
    static let hex: StaticString = "0123456789abcdef"

    @inline(__always)
    static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Closes the previous string value, writes `key` (which carries its quotes) and opens the value.
    @inline(__always)
    static func appendField(_ key: StaticString, _ value: String, to buffer: inout [UInt8]) {
        append(key, to: &buffer)
        appendEscaped(value, to: &buffer)
    }

    /// Appends the string's UTF-8 with `"`, `\` and control characters escaped (the quotes are the caller's).
    @inline(__always)
    static func appendEscaped(_ string: String, to buffer: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            if !utf8.contains(where: needsEscape) {
                buffer.append(contentsOf: utf8)
                return
            }
            var runStart = 0
            for index in utf8.indices where needsEscape(utf8[index]) {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                let byte = utf8[index]
                buffer.append(UInt8(ascii: "\\"))
                if byte == quote || byte == UInt8(ascii: "\\") {
                    buffer.append(byte)
                } else {
                    buffer.append(contentsOf: [UInt8(ascii: "u"), 48, 48, hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 15)]])
                }
                runStart = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == quote || byte == UInt8(ascii: "\\")
    }
}

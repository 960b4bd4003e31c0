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
        buffer.append(contentsOf: JSONBytes.timestampKey)
        ReportTimestamp.append(ReportTimestamp.milliseconds(timestamp), to: &buffer)
        buffer.append(contentsOf: JSONBytes.eventKey)
        JSONBytes.appendEscaped(name.rawValue, to: &buffer)
        if let layout { JSONBytes.appendField(JSONBytes.layoutKey, layout, to: &buffer) }
        if let item { JSONBytes.appendField(JSONBytes.itemKey, item, to: &buffer) }
        if let visitor { JSONBytes.appendField(JSONBytes.visitorKey, visitor, to: &buffer) }
        if let request { JSONBytes.appendField(JSONBytes.requestKey, request, to: &buffer) }
        if !properties.isEmpty {
            buffer.append(contentsOf: JSONBytes.propertiesKey)
            var first = true
            // Sorted so that equal events give equal lines.
            for key in properties.keys.sorted() {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                buffer.append(JSONBytes.quote)
                JSONBytes.appendEscaped(key, to: &buffer)
                buffer.append(contentsOf: JSONBytes.colonQuote)
                JSONBytes.appendEscaped(properties[key]!, to: &buffer)
                buffer.append(JSONBytes.quote)
            }
            buffer.append(contentsOf: JSONBytes.propertiesEnd)
        } else {
            buffer.append(contentsOf: JSONBytes.lineEnd)
        }
    }
}

/// Byte-level JSON writing helpers for the report line format.
enum JSONBytes {
    static let quote = UInt8(ascii: "\"")
    static let timestampKey = Array(#"{"timestamp":""#.utf8)
    static let eventKey = Array(#"","event":""#.utf8)
    static let layoutKey = Array(#"","layout":""#.utf8)
    static let itemKey = Array(#"","item":""#.utf8)
    static let visitorKey = Array(#"","visitor":""#.utf8)
    static let requestKey = Array(#"","request":""#.utf8)
    static let propertiesKey = Array(#"","properties":{"#.utf8)
    static let colonQuote = Array(#"":""#.utf8)
    static let lineEnd = Array("\"}\n".utf8)
    static let propertiesEnd = Array("}}\n".utf8)
    static let hex = Array("0123456789abcdef".utf8)

    /// Closes the previous string value, writes `key` (which carries its quotes) and opens the value.
    @inline(__always)
    static func appendField(_ key: [UInt8], _ value: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: key)
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
                    buffer.append(contentsOf: [UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
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

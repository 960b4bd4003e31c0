#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a report line could not be read back (torn by a crash, edited by hand, …).
public struct ReportDecodingError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, e.g. `unterminated string`.
    public let reason: String
    /// The byte position in the line where reading stopped.
    public let position: Int
    public var description: String { "malformed report line at byte \(position): \(reason)" }
}

extension ReportEvent {
    /// Reads one JSON line back; throws `ReportDecodingError` on anything malformed or torn.
    public init(jsonLine: String) throws {
        var line = jsonLine
        self = try line.withUTF8 { try ReportEvent(parsing: $0) }
    }

    /// Reads one JSON line, given as UTF-8 bytes, back; a trailing newline is allowed.
    public init<Bytes: Collection<UInt8>>(jsonLine bytes: Bytes) throws {
        if let event = try bytes.withContiguousStorageIfAvailable({ try ReportEvent(parsing: $0) }) {
            self = event
        } else {
            self = try Array(bytes).withUnsafeBufferPointer { try ReportEvent(parsing: $0) }
        }
    }

    /// Strict reader for the flat shape the log writes: string values and one object of strings.
    /// Hand-rolled because the reports page decodes every line of the file.
    init(parsing bytes: UnsafeBufferPointer<UInt8>) throws {
        var parser = FlatJSONParser(bytes: bytes)
        var timestamp: Date?
        var name: String?
        var fields: [String?] = [nil, nil, nil, nil]
        var properties: [String: String] = [:]
        try parser.object { parser, key in
            switch key {
            case "properties": properties = try parser.stringObject()
            case "timestamp":
                let position = parser.index
                guard let ms = try parser.string(timestamp: true).ms else {
                    throw parser.error("bad timestamp", at: position)
                }
                timestamp = ReportTimestamp.date(milliseconds: ms)
            case "event": name = try parser.string()
            case "layout": fields[0] = try parser.string()
            case "item": fields[1] = try parser.string()
            case "visitor": fields[2] = try parser.string()
            case "request": fields[3] = try parser.string()
            default: _ = try parser.string()  // unknown string fields are tolerated
            }
        }
        try parser.end()
        guard let timestamp else { throw parser.error("missing timestamp", at: 0) }
        guard let name, !name.isEmpty else { throw parser.error("missing event", at: 0) }
        self.init(
            Name(rawValue: name), timestamp: timestamp, layout: fields[0], item: fields[1],
            visitor: fields[2], request: fields[3], properties: properties)
    }
}

import Reporting

/// Report events as the rows of `COPY report_events … FROM STDIN (FORMAT binary)`: each field its
/// length and bytes, the time as microseconds since 2000 and the offset as 8 bytes, so PostgreSQL
/// parses no timestamp, number or escape (the events' COPY is most of a batch's transaction). The
/// properties are a JSON object in `jsonb`'s binary form (a version byte, then the text). Text
/// cannot hold NUL, so NUL characters are left out.
struct EventRows: Sendable {
    /// The header and the rows; `trailer` ends them.
    private(set) var bytes: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0] + [0, 0, 0, 0] + [0, 0, 0, 0]
    private(set) var count = 0

    static let trailer: [UInt8] = [0xFF, 0xFF]

    /// The columns, in the order `append` writes them.
    static let columns = "time, instance, name, layout, item, visitor, request, properties, segment, \"offset\""

    /// 2000-01-01 in milliseconds since 1970: PostgreSQL's epoch.
    private static let postgresEpochMs: Int64 = 946_684_800_000

    /// The instance's name: the second column of every row.
    private let instance: String

    init(instance: String) { self.instance = instance }

    mutating func append(_ event: ReportEvent, segment: String, offset: Int64) {
        integer(Int16(10))
        integer(Int32(8))
        integer((ReportTimestamp.milliseconds(event.timestamp) - Self.postgresEpochMs) * 1000)
        text(instance)
        text(event.name.rawValue)
        text(event.layout)
        text(event.item)
        text(event.visitor)
        text(event.request)
        let lengthAt = bytes.count
        integer(Int32(0))
        bytes.append(1)
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in event.properties.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            json(key)
            bytes.append(UInt8(ascii: ":"))
            json(event.properties[key]!)
        }
        bytes.append(UInt8(ascii: "}"))
        setLength(at: lengthAt)
        text(segment)
        integer(Int32(8))
        integer(offset)
        count += 1
    }

    private mutating func integer<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// The field's length, once its bytes follow the four at `at`.
    private mutating func setLength(at: Int) {
        withUnsafeBytes(of: Int32(bytes.count - at - 4).bigEndian) { length in
            for index in 0..<4 { bytes[at + index] = length[index] }
        }
    }

    /// A text field (NULL for nil), its NUL characters left out.
    private mutating func text(_ value: String?) {
        guard var value else { return integer(Int32(-1)) }
        let lengthAt = bytes.count
        integer(Int32(0))
        value.withUTF8 { utf8 in
            guard utf8.contains(0) else { return bytes.append(contentsOf: utf8) }
            bytes.append(contentsOf: utf8.lazy.filter { $0 != 0 })
        }
        setLength(at: lengthAt)
    }

    /// A JSON string.
    private mutating func json(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case 0: break
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

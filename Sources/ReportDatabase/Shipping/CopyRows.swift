import Reporting

/// Report events as rows of `COPY … FROM STDIN` in text format: tab-separated, `\N` for NULL,
/// backslash escapes; the properties as a JSON object for the `jsonb` column. PostgreSQL text
/// cannot hold NUL, so NUL characters are left out.
struct CopyRows: Sendable {
    var bytes: [UInt8] = []
    var count = 0

    /// The columns, in the order `append` writes them.
    static let columns = "time, instance, name, layout, item, visitor, request, properties, segment, \"offset\""

    /// The instance's name, already escaped: the second column of every row.
    let instance: [UInt8]

    init(instance: String) {
        var escaped = CopyRows(escaping: ())
        escaped.text(instance)
        self.instance = escaped.bytes
    }

    private init(escaping: Void) { instance = [] }

    mutating func append(_ event: ReportEvent, segment: String, offset: Int64) {
        bytes.append(contentsOf: ReportTimestamp.string(from: event.timestamp).utf8)
        tab()
        bytes.append(contentsOf: instance)
        tab()
        text(event.name.rawValue)
        tab()
        optional(event.layout)
        tab()
        optional(event.item)
        tab()
        optional(event.visitor)
        tab()
        optional(event.request)
        tab()
        bytes.append(UInt8(ascii: "{"))
        for (index, key) in event.properties.keys.sorted().enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            json(key)
            bytes.append(UInt8(ascii: ":"))
            json(event.properties[key]!)
        }
        bytes.append(UInt8(ascii: "}"))
        tab()
        text(segment)
        tab()
        number(offset)
        bytes.append(UInt8(ascii: "\n"))
        count += 1
    }

    mutating func tab() { bytes.append(9) }

    /// A decimal integer, written in place: no `String` made per number.
    mutating func number(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for a UInt64's 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[at...]))
        }
    }

    private mutating func optional(_ value: String?) {
        if let value { text(value) } else { bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")]) }
    }

    /// A COPY text field: backslash, tab, newline and carriage return escaped. The runs between
    /// those bytes (nearly always the whole value) are appended at once.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                switch byte {
                case 0, 9, 10, 13, UInt8(ascii: "\\"): break
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                copyByte(byte)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
    }

    private mutating func copyByte(_ byte: UInt8) {
        switch byte {
        case 0: break
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
        case 9: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
        case 10: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
        case 13: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
        default: bytes.append(byte)
        }
    }

    /// A JSON string inside a COPY field: JSON escapes first, then COPY's.
    private mutating func json(_ value: String) {
        copyByte(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case 0: break
            case UInt8(ascii: "\""): copyByte(92); copyByte(byte)
            case 92: copyByte(92); copyByte(92)
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                for piece in [92, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]] {
                    copyByte(piece)
                }
            default: copyByte(byte)
            }
        }
        copyByte(UInt8(ascii: "\""))
    }
}

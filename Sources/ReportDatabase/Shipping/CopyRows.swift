import Reporting

/// Rows of `COPY … FROM STDIN` in text format (tab-separated, backslash escapes) for the small
/// tables a batch also writes: its minutes, its experiment counts, its visitors' changes (the events
/// go as `EventRows`). PostgreSQL text cannot hold NUL, so NUL characters are left out.
struct CopyRows: Sendable {
    var bytes: [UInt8] = []

    init() {}

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
}

extension HTMLWriter {
    /// Escapes by scanning UTF-8 and copying runs of safe bytes in bulk.
    ///
    /// Besides the five specials, code points that HTML forbids in a document (C0 controls other
    /// than whitespace, DEL, C1 controls) become U+FFFD, so data can never make a page invalid.
    @usableFromInline
    mutating func appendEscaped(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var runStart = 0
            var index = 0
            while index < count {
                let byte = base[index]
                // Everything from "@" upwards is safe except DEL and the C1 lead byte 0xC2.
                if byte >= 0x40 && byte != 0x7F && byte != 0xC2 {
                    index += 1
                    continue
                }
                let replacement: StaticString
                var width = 1
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                case 0x09, 0x0A, 0x0C, 0x0D, 0x20...0x3F:
                    index += 1
                    continue
                case 0xC2:
                    // U+0080...U+009F are encoded C2 80...C2 9F.
                    guard index + 1 < count, (0x80...0x9F).contains(base[index + 1]) else {
                        index += 1
                        continue
                    }
                    replacement = "\u{FFFD}"
                    width = 2
                default:
                    replacement = "\u{FFFD}"
                }
                if index > runStart {
                    buffer.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                }
                write(replacement)
                index += width
                runStart = index
            }
            if count > runStart {
                buffer.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
            }
        }
    }
}

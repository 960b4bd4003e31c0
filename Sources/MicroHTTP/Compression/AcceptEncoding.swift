/// Picks the coding of a response from the request's `Accept-Encoding` (RFC 9110 §12.5.3).
///
/// Each listed coding has a weight (`q`, default 1, `q=0` meaning "not acceptable"); `*` weighs
/// every coding not listed by name. The best weight among brotli, gzip and identity wins; on a
/// tie brotli beats gzip (smaller), and both beat identity. No header means identity: old
/// clients and tools that do not ask for compression get none. When nothing acceptable is
/// left, identity is sent anyway (a readable body beats a 406). Reads the header's bytes in
/// place: it runs for every compressible response.
public enum AcceptEncoding {
    /// The coding for a request whose `Accept-Encoding` is `header` (nil when absent).
    public static func preferred(_ header: String?) -> ContentCoding {
        guard var header else { return .identity }
        return header.withUTF8 { preferred(UnsafeRawBufferPointer($0)) }
    }

    /// The coding for the header's raw bytes (no NUL needed); `brotli` false leaves brotli out,
    /// for a body that has no brotli form made ahead.
    public static func preferred(_ header: UnsafeRawBufferPointer, brotli allowsBrotli: Bool = true) -> ContentCoding {
        // Weights in thousandths; -1 = not mentioned.
        var brotli = -1, gzip = -1, identity = -1, star = -1
        var start = 0
        while start <= header.count {
            var end = start
            while end < header.count, header[end] != UInt8(ascii: ",") { end += 1 }
            if let (name, weight) = element(header, start, end) {
                switch name {
                case .brotli: brotli = weight
                case .gzip: gzip = max(gzip, weight)  // "gzip" and "x-gzip" are one coding
                case .identity: identity = weight
                case .star: star = weight
                case .other: break
                }
            }
            start = end + 1
        }
        if brotli < 0 { brotli = star < 0 ? 0 : star }
        if gzip < 0 { gzip = star < 0 ? 0 : star }
        // Identity is acceptable unless excluded by name or by `*;q=0`; never chosen below a coding.
        if identity < 0 { identity = star == 0 ? 0 : 1 }
        if allowsBrotli, brotli > 0, brotli >= gzip, brotli >= identity { return .brotli }
        if gzip > 0, gzip >= identity { return .gzip }
        return .identity
    }

    private enum Name { case brotli, gzip, identity, star, other }

    /// One list element, `coding *( OWS ";" OWS param )`: its name and weight; nil when empty or
    /// its weight is malformed (an element that cannot be read is ignored).
    private static func element(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (Name, Int)? {
        var at = start
        skipSpace(bytes, &at, end)
        let nameStart = at
        while at < end, bytes[at] != UInt8(ascii: ";"), !isSpace(bytes[at]) { at += 1 }
        guard at > nameStart else { return nil }
        let name = classify(bytes, nameStart, at)
        var weight = 1000
        while at < end {
            skipSpace(bytes, &at, end)
            guard at < end else { break }
            guard bytes[at] == UInt8(ascii: ";") else { return nil }
            at += 1
            skipSpace(bytes, &at, end)
            let paramStart = at
            while at < end, bytes[at] != UInt8(ascii: ";"), !isSpace(bytes[at]) { at += 1 }
            if at - paramStart >= 2, bytes[paramStart] | 0x20 == UInt8(ascii: "q"), bytes[paramStart + 1] == UInt8(ascii: "=") {
                guard let parsed = qvalue(bytes, paramStart + 2, at) else { return nil }
                weight = parsed
            }
        }
        return (name, weight)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    private static func qvalue(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        guard start < end, bytes[start] == UInt8(ascii: "0") || bytes[start] == UInt8(ascii: "1") else { return nil }
        var value = Int(bytes[start] - UInt8(ascii: "0")) * 1000
        guard start + 1 < end else { return value }
        guard bytes[start + 1] == UInt8(ascii: "."), end - (start + 2) <= 3 else { return nil }
        var scale = 100
        for index in (start + 2)..<end {
            let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit) else { return nil }
            value += digit * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    /// The name's bytes or-ed with 0x20 (lowercase letters; the other bytes of these names already
    /// have that bit), first in the lowest byte, compared as one word with each known name's: read
    /// with one or two loads, for the lengths of those names only.
    private static func classify(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Name {
        let at = bytes.baseAddress! + start
        switch end - start {
        case 1:
            return bytes[start] == UInt8(ascii: "*") ? .star : .other
        case 2:
            return at.loadUnaligned(as: UInt16.self).littleEndian | 0x2020 == 0x7262 ? .brotli : .other  // "br"
        case 4:
            return at.loadUnaligned(as: UInt32.self).littleEndian | 0x2020_2020 == 0x7069_7a67 ? .gzip : .other  // "gzip"
        case 6:
            let word = UInt64(at.loadUnaligned(as: UInt32.self).littleEndian)
                | UInt64(at.loadUnaligned(fromByteOffset: 4, as: UInt16.self).littleEndian) << 32
            return word | 0x2020_2020_2020 == 0x7069_7a67_2d78 ? .gzip : .other  // "x-gzip"
        case 8:
            let word = at.loadUnaligned(as: UInt64.self).littleEndian
            return word | 0x2020_2020_2020_2020 == 0x7974_6974_6e65_6469 ? .identity : .other  // "identity"
        default:
            return .other
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func skipSpace(_ bytes: UnsafeRawBufferPointer, _ at: inout Int, _ end: Int) {
        while at < end, isSpace(bytes[at]) { at += 1 }
    }
}

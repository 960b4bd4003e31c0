import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReportEvent {
    /// The event as one JSON line in the design's key order, without the trailing newline.
    public var jsonLine: String {
        withJSONLine { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    /// Appends the event's JSON line, newline included, to `buffer`.
    public func appendJSONLine(to buffer: inout [UInt8]) {
        withJSONLine { buffer.append(contentsOf: $0) }
    }

    /// Calls `body` with the JSON line, newline included, written into temporary memory. (The log's
    /// writer calls `writeJSONLine` itself, to write straight into its chunk.)
    func withJSONLine<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: jsonLineBound) { scratch in
            body(UnsafeBufferPointer(rebasing: scratch[..<writeJSONLine(to: scratch.baseAddress!)]))
        }
    }

    /// The largest `jsonLineBound` the log writes; a larger event is dropped and counted. Lines of
    /// up to 10 KB always fit (the bound counts every string byte six times).
    public static let maximumLineBound = 64 * 1024

    /// At least the length of the JSON line: every string byte is counted as if it needed `\u00XX`.
    var jsonLineBound: Int {
        var stringBytes = name.rawValue.utf8.count + (layout?.utf8.count ?? 0) + (item?.utf8.count ?? 0)
        if !properties.isEmpty {
            for (key, value) in properties { stringBytes += key.utf8.count + value.utf8.count }
        }
        // The keys and punctuation of a line with every field take 116 bytes; `"k":"v",` takes 6.
        return 128 + 6 * properties.count + 6 * stringBytes + Self.lineBound(visitor: visitor, request: request)
    }

    /// The visitor's and request's share of `jsonLineBound`.
    @inline(__always)
    static func lineBound(visitor: String?, request: String?) -> Int {
        6 * ((visitor?.utf8.count ?? 0) + (request?.utf8.count ?? 0))
    }

    /// Writes the JSON line, newline included, at `start`, which must have room for `jsonLineBound`
    /// bytes; returns its length. One pass over raw memory: appending the line piece by piece to an
    /// array paid a uniqueness and capacity check per piece, more than the bytes themselves.
    func writeJSONLine(to start: UnsafeMutablePointer<UInt8>) -> Int {
        var timestamps = TimestampCache()
        return writeJSONLine(to: start, timestamps: &timestamps)
    }

    /// `writeJSONLine(to:)` with the timestamp's second taken from `timestamps` when it is the same.
    func writeJSONLine(to start: UnsafeMutablePointer<UInt8>, timestamps: inout TimestampCache) -> Int {
        var out = JSONByteWriter(position: start)
        out.writeTimestamp(ReportTimestamp.milliseconds(timestamp), cache: &timestamps)
        writeFixedHead(into: &out)
        out.writeIDs(visitor: visitor, request: request)
        writeFixedTail(into: &out)
        let count = start.distance(to: out.position)
        assert(count <= jsonLineBound, "jsonLineBound is too small")
        return count
    }

    /// The line from the end of the timestamp to the visitor: the name, layout and item (an
    /// `EventTemplate` keeps these bytes).
    @inline(__always)
    func writeFixedHead(into out: inout JSONByteWriter) {
        out.write(#"","event":""#)
        out.writeEscaped(name.rawValue)
        if let layout { out.writeField(#"","layout":""#, layout) }
        if let item { out.writeField(#"","item":""#, item) }
    }

    /// The line after the request: the properties and the end, newline included.
    @inline(__always)
    func writeFixedTail(into out: inout JSONByteWriter) {
        if properties.isEmpty {
            out.write("\"}\n")
        } else {
            out.write(#"","properties":{"#)
            // Sorted so that equal events give equal lines.
            for (index, property) in properties.sorted(by: { $0.key < $1.key }).enumerated() {
                out.write(index == 0 ? #"""# : #",""#)
                out.writeEscaped(property.key)
                out.write(#"":""#)
                out.writeEscaped(property.value)
                out.write(#"""#)
            }
            out.write("}}\n")
        }
    }
}

/// Writes the pieces of a report line into memory the caller has sized. The fixed parts are
/// `StaticString`s, copied straight from the binary: no array to look up, retain or release.
struct JSONByteWriter {
    var position: UnsafeMutablePointer<UInt8>

    /// The line's start and its time.
    @inline(__always)
    mutating func writeTimestamp(_ ms: Int64, cache: inout TimestampCache) {
        write(#"{"timestamp":""#)
        position += cache.write(ms, to: position)
    }

    /// The visitor and request fields, those there are.
    @inline(__always)
    mutating func writeIDs(visitor: String?, request: String?) {
        if let visitor { writeField(#"","visitor":""#, visitor) }
        if let request { writeField(#"","request":""#, request) }
    }

    /// The visitor field (the id's digits, which need no escaping) and the request field (the
    /// id's text, written from its value, which needs none either), those there are.
    @inline(__always)
    mutating func writeIDs(visitor: VisitorID?, request: String?, requestID: RequestID? = nil) {
        if let visitor {
            write(#"","visitor":""#)
            var digits = visitor.digits
            withUnsafeBytes(of: &digits) { position.initialize(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: VisitorID.digitCount) }
            position += VisitorID.digitCount
        }
        if let requestID {
            write(#"","request":""#)
            position += requestID.write(to: position)
        } else if let request {
            writeField(#"","request":""#, request)
        }
    }

    /// Bytes written before (a template's piece of a line).
    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        position.initialize(from: base, count: bytes.count)
        position += bytes.count
    }

    @inline(__always)
    mutating func write(_ text: StaticString) {
        position.initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
        position += text.utf8CodeUnitCount
    }

    /// Closes the previous string value, writes `key` (which carries its quotes) and the value.
    @inline(__always)
    mutating func writeField(_ key: StaticString, _ value: String) {
        write(key)
        writeEscaped(value)
    }

    /// Writes the string's UTF-8 with `"`, `\` and control characters escaped (the quotes are the caller's).
    @inline(__always)
    mutating func writeEscaped(_ string: String) {
        // Native and small strings lend their bytes without the copy `withUTF8` needs.
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) == nil {
            var string = string
            string.withUTF8 { writeEscaped($0) }
        }
    }

    mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Copy first, a word at a time, checking the words for bytes to escape as they pass; ids
        // and names never have any, so the byte-by-byte second pass is rare.
        let escapes =
            switch utf8.count {
            case 8...: copyWords(utf8, as: UInt64.self)
            case 4...: copyWords(utf8, as: UInt32.self)
            case 2...: copyWords(utf8, as: UInt16.self)
            case 1: copyWords(utf8, as: UInt8.self)
            default: false
            }
        guard escapes else {
            position += utf8.count
            return
        }
        for byte in utf8 {
            if Self.escapeFlags(byte) == 0 {
                position.pointee = byte
                position += 1
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                position[0] = UInt8(ascii: "\\")
                position[1] = byte
                position += 2
            } else {
                let hex: StaticString = "0123456789abcdef"
                write(#"\u00"#)
                position[0] = hex.utf8Start[Int(byte >> 4)]
                position[1] = hex.utf8Start[Int(byte & 15)]
                position += 2
            }
        }
    }

    /// Copies `utf8`, at least one `Word` long, to `position` a word at a time, the last word
    /// overlapping the one before (so there is no byte-wise tail); returns whether a byte needs escaping.
    @inline(__always)
    func copyWords<Word: FixedWidthInteger & UnsignedInteger>(_ utf8: UnsafeBufferPointer<UInt8>, as: Word.Type) -> Bool {
        let source = UnsafeRawPointer(utf8.baseAddress!)
        let target = UnsafeMutableRawPointer(position)
        let size = MemoryLayout<Word>.size
        var flags: Word = 0
        func copy(at offset: Int) {
            let word = source.loadUnaligned(fromByteOffset: offset, as: Word.self)
            target.storeBytes(of: word, toByteOffset: offset, as: Word.self)
            flags |= Self.escapeFlags(word)
        }
        var offset = 0
        while offset < utf8.count - size {
            copy(at: offset)
            offset += size
        }
        copy(at: utf8.count - size)
        return flags != 0
    }

    /// Nonzero if a byte of `word` must be escaped: `"`, `\` or a control character. Bytes below
    /// `n` show up in `(x - n * ones) & ~x & highs` (bit-twiddling's `hasless`); equal ones as zeros.
    @inline(__always)
    static func escapeFlags<Word: FixedWidthInteger & UnsignedInteger>(_ word: Word) -> Word {
        let ones = Word.max / 255
        func below(_ n: Word, _ x: Word) -> Word { (x &- n &* ones) & ~x & (0x80 &* ones) }
        return below(0x20, word) | below(1, word ^ (0x22 &* ones)) | below(1, word ^ (0x5C &* ones))
    }
}

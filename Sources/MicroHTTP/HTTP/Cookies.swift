import Basics
import Glibc

/// A request's cookies, read from its `Cookie` header when asked: a lookup scans the header's
/// bytes and allocates only the value, where a dictionary made up front would allocate every
/// name and value of every request. A request's single `Cookie` header is read where its
/// headers were copied (`ReceivedHeaders`), without a `String` of its own.
public struct Cookies: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    private enum Source: Sendable {
        case text(String)
        /// The value's bytes within the request's copy of its headers.
        case received(ReceivedHeaders, Range<Int>)
    }

    private let source: Source

    /// The `Cookie` header's value (several headers joined by `; `).
    public var header: String {
        switch source {
        case .text(let text): text
        case .received(let headers, let range): headers.withBytes(in: range) { String(decoding: $0, as: UTF8.self) }
        }
    }

    public init(header: String = "") { source = .text(header) }

    init(received headers: ReceivedHeaders, range: Range<Int>) { source = .received(headers, range) }

    /// The header a browser would send for these pairs (for tests and tools: a value must not
    /// hold `;`, as in a real Cookie header).
    public init(dictionaryLiteral elements: (String, String)...) {
        source = .text(elements.map { "\($0)=\($1)" }.joined(separator: "; "))
    }

    /// Whether the header holds the bytes `name=` anywhere: a test with `memchr` before looking
    /// up a cookie that few requests carry (a match may be inside another cookie's value).
    public func mayHold(_ name: StaticString) -> Bool {
        withHeaderBytes { Self.mayHold(name, in: $0) }
    }

    private static func mayHold(_ name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, name.utf8CodeUnitCount > 0 else { return false }
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        let last = bytes.count - wanted.count - 1
        var at = 0
        while at <= last, let found = bytes.firstOffset(of: wanted[0], in: at..<last + 1) {
            if memcmp(base + found, wanted.baseAddress!, wanted.count) == 0,
               bytes[found + wanted.count] == UInt8(ascii: "=") { return true }
            at = found + 1
        }
        return false
    }

    /// Calls `body` with the header's bytes, read in place.
    func withHeaderBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch source {
        case .received(let headers, let range):
            return headers.withBytes(in: range, body)
        case .text(let text):
            if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
            var copy = text
            return copy.withUTF8(body)
        }
    }

    /// The first cookie called `name`, as `CookieParser` reads the header.
    public subscript(name: String) -> String? {
        withHeaderBytes { bytes in bytes.isEmpty ? nil : CookieParser.value(of: name, in: bytes) }
    }

    /// The first cookie called `name` read as a 128-bit id (32 lowercase hex digits), in place:
    /// nil without one, or when it is not an id. A visitor's cookie on every request needs no
    /// `String` of its own.
    public func id(_ name: StaticString) -> VisitorID? {
        withHeaderBytes { Self.id(name, in: $0) }
    }

    /// `id(name)` and `mayHold(other)`, the header read once: every request asks for the
    /// visitor's id and whether a cookie few carry may be there.
    public func id(_ name: StaticString, mayHold other: StaticString) -> (id: VisitorID?, mayHold: Bool) {
        withHeaderBytes { bytes in (Self.id(name, in: bytes), Self.mayHold(other, in: bytes)) }
    }

    /// `name` must be a token (as `CookieParser.valueRange` asks).
    private static func id(_ name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> VisitorID? {
        // A header that starts with the pair, an id long, and ends or goes on with `;` there (a
        // browser sends the oldest cookie first): the walk would find that pair first, its name
        // and digits holding no `;`, `=`, blank or quote, so its digits are read where they must be.
        let length = name.utf8CodeUnitCount, end = length + 1 + VisitorID.digitCount
        if bytes.count >= end, bytes.count == end || bytes[end] == UInt8(ascii: ";"),
           bytes[length] == UInt8(ascii: "="), memcmp(bytes.baseAddress!, name.utf8Start, length) == 0,
           let id = VisitorID(utf8: UnsafeBufferPointer(rebasing: bytes[length + 1..<end])) {
            return id
        }
        guard !bytes.isEmpty, let range = CookieParser.valueRange(of: name, in: bytes) else { return nil }
        return VisitorID(utf8: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// Every cookie, the first of duplicate names winning.
    public var all: [String: String] {
        let header = header
        return header.isEmpty ? [:] : CookieParser.parse(header)
    }

    public func makeIterator() -> Dictionary<String, String>.Iterator { all.makeIterator() }
}

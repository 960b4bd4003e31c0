import Basics

/// Decoded query-string values in request order; repeated keys are kept.
public struct QueryParameters: Sendable, Sequence {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    /// The first value of `name`; a bare `?flag` has the empty string as its value.
    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    public var isEmpty: Bool { pairs.isEmpty }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        pairs.makeIterator()
    }
}

/// A query argument whose name or value does not decode to UTF-8; `name` is decoded lossily.
struct InvalidQueryArgument: Error {
    let name: String
}

extension QueryParameters {
    /// Decodes a raw query (after the `?`) as libmicrohttpd 0.9.75 did: `&` separates arguments
    /// (a final empty one is dropped), the first `=` ends the name (none: the empty value), then
    /// `+` is a space and `%XX` a byte. Escapes are checked before (`PathDecoding.hasWellFormedEscapes`).
    /// `expected`, the arguments counted before, sizes the list once.
    static func decode(_ query: Substring, expected: Int = 0) throws(InvalidQueryArgument) -> QueryParameters {
        var query = query
        var invalid: InvalidQueryArgument?
        let pairs = query.withUTF8 { bytes -> [(name: String, value: String)] in
            var pairs: [(name: String, value: String)] = []
            pairs.reserveCapacity(expected)
            var start = 0
            while start < bytes.count {
                let end = bytes.firstOffset(of: ampersand, in: start..<bytes.count) ?? bytes.count
                let equals = bytes.firstOffset(of: equalsSign, in: start..<end)
                let rawName = bytes[start..<(equals ?? end)]
                guard let name = component(rawName) else {
                    invalid = InvalidQueryArgument(name: String(decoding: unescaped(rawName), as: UTF8.self))
                    return []
                }
                guard let value = equals.map({ component(bytes[($0 + 1)..<end]) }) ?? "" else {
                    invalid = InvalidQueryArgument(name: name)
                    return []
                }
                pairs.append((name, value))
                start = end + 1
            }
            return pairs
        }
        if let invalid { throw invalid }
        return QueryParameters(pairs)
    }

    private static let ampersand = UInt8(ascii: "&"), equalsSign = UInt8(ascii: "=")
    private static let plus = UInt8(ascii: "+"), percent = UInt8(ascii: "%")

    private static func component(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        // Cut from a String at ASCII bytes, a part without escapes is already valid UTF-8.
        let whole = UnsafeBufferPointer(rebasing: bytes)
        guard whole.firstOffset(of: plus, in: 0..<whole.count) != nil || whole.firstOffset(of: percent, in: 0..<whole.count) != nil
        else { return String(decoding: whole, as: UTF8.self) }
        return String(validating: unescaped(bytes), as: UTF8.self)
    }

    /// `+` becomes a space and `%XX` its byte; a malformed escape stays as it is, as in libmicrohttpd.
    private static func unescaped(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == percent, index + 2 < bytes.endIndex,
               let high = PercentEncoding.hexValue(bytes[index + 1]), let low = PercentEncoding.hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == plus ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return out
    }
}

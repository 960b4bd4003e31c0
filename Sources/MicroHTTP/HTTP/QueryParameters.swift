import Basics

/// Decoded query-string values in request order; repeated keys are kept.
///
/// A request's query without `%` escapes stays as received and is read in place when asked: a
/// look-up compares names as bytes and makes a `String` of the value it finds only, where a list
/// decoded up front cost an array and two strings per argument on every request.
public struct QueryParameters: Sendable, Sequence {
    private enum Source: Sendable {
        case pairs([(name: String, value: String)])
        /// A target and where its query starts (after the `?`), without `%`: every argument decodes
        /// (`+` is a space), and cut at ASCII bytes from a `String` it is UTF-8. Read through the
        /// target's own bytes: a `Substring` of it checked where its bounds fall.
        case received(String, Int)
    }

    private let source: Source

    public init(_ pairs: [(name: String, value: String)] = []) { source = .pairs(pairs) }

    private init(received target: String, from start: Int) { source = .received(target, start) }

    /// Every argument, decoded, in order.
    public var pairs: [(name: String, value: String)] {
        switch source {
        case .pairs(let pairs): return pairs
        case .received(var target, let start):
            return target.withUTF8 { bytes in
                var pairs: [(name: String, value: String)] = []
                Self.forEach(in: UnsafeBufferPointer(rebasing: bytes[start...])) { name, value in
                    pairs.append((Self.component(name), value.map(Self.component) ?? ""))
                    return true
                }
                return pairs
            }
        }
    }

    /// The first value of `name`; a bare `?flag` has the empty string as its value.
    public subscript(name: String) -> String? {
        switch source {
        case .pairs(let pairs): return pairs.first { $0.name == name }?.value
        case .received(var target, let start):
            var wanted = name
            return target.withUTF8 { bytes in
                wanted.withUTF8 { wanted in
                    Self.value(of: wanted, in: UnsafeBufferPointer(rebasing: bytes[start...])).map(Self.component)
                }
            }
        }
    }

    /// What `match(_:among:)` found.
    public enum Match: Equatable, Sendable {
        /// No argument is called `name`.
        case absent
        /// Its first value is `candidates[index]`.
        case candidate(Int)
        /// Its first value is none of them (`self[name]` spells it).
        case other
    }

    /// The first value of `name`, told apart among `candidates` without a `String` of its own: a
    /// handler that takes one of a few known values (a layout's name) compares the bytes in place.
    public func match(_ name: StaticString, among candidates: [String]) -> Match {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        switch source {
        case .pairs(let pairs):
            return Self.match(pairs.first { $0.name.utf8.elementsEqual(wanted) }?.value, among: candidates)
        case .received(let target, let start):
            return target.utf8.withContiguousStorageIfAvailable { bytes -> Match in
                guard let raw = Self.value(of: wanted, in: UnsafeBufferPointer(rebasing: bytes[start...])) else {
                    return .absent
                }
                for index in candidates.indices where Self.rawValue(raw, decodesTo: candidates[index]) {
                    return .candidate(index)
                }
                return .other
            } ?? Self.match(self[String(describing: name)], among: candidates)
        }
    }

    /// `match(name, among: candidates)` and `contains(other)` in one pass over the query: a
    /// handler that reads both reads the bytes once.
    public func match(_ name: StaticString, among candidates: [String],
                      andContains other: StaticString) -> (match: Match, contains: Bool) {
        let (match, contains) = match(name, among: candidates, andContains: other, other)
        return (match, contains.0)
    }

    /// `match(name, among: candidates)`, `contains(other)` and `contains(another)` in one pass.
    public func match(_ name: StaticString, among candidates: [String], andContains other: StaticString,
                      _ another: StaticString) -> (match: Match, contains: (Bool, Bool)) {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        let noted = (UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount),
                     UnsafeBufferPointer(start: another.utf8Start, count: another.utf8CodeUnitCount))
        guard case .received(let target, let start) = source else {
            return (match(name, among: candidates), (contains(other), contains(another)))
        }
        return target.utf8.withContiguousStorageIfAvailable { bytes -> (match: Match, contains: (Bool, Bool)) in
            let (raw, contains) = Self.value(of: wanted, in: UnsafeBufferPointer(rebasing: bytes[start...]), noting: noted)
            guard let raw else { return (.absent, contains) }
            for index in candidates.indices where Self.rawValue(raw, decodesTo: candidates[index]) {
                return (.candidate(index), contains)
            }
            return (.other, contains)
        } ?? (match(name, among: candidates), (contains(other), contains(another)))
    }

    /// Whether some argument is called `name`, read in place.
    public func contains(_ name: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        switch source {
        case .pairs(let pairs): return pairs.contains { $0.name.utf8.elementsEqual(wanted) }
        case .received(let target, let start):
            return target.utf8.withContiguousStorageIfAvailable {
                Self.value(of: wanted, in: UnsafeBufferPointer(rebasing: $0[start...])) != nil
            } ?? (self[String(describing: name)] != nil)
        }
    }

    private static func match(_ value: String?, among candidates: [String]) -> Match {
        guard let value else { return .absent }
        return candidates.firstIndex(of: value).map(Match.candidate) ?? .other
    }

    /// Whether a raw value without `%` decodes to `candidate` (`+` standing for a space).
    private static func rawValue(_ raw: UnsafeBufferPointer<UInt8>, decodesTo candidate: String) -> Bool {
        let utf8 = candidate.utf8
        guard utf8.count == raw.count else { return false }
        return utf8.withContiguousStorageIfAvailable { decodes(raw, to: $0) } ?? (component(raw) == candidate)
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    public var isEmpty: Bool {
        switch source {
        case .pairs(let pairs): pairs.isEmpty
        case .received(let target, let start): target.utf8.count == start
        }
    }

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
        try decode(String(query), from: 0, expected: expected)
    }

    /// The query of `target` from `start` (after its `?`): one without `%` is kept as it is and read when asked.
    static func decode(_ target: String, from start: Int, expected: Int = 0) throws(InvalidQueryArgument) -> QueryParameters {
        var target = target
        let escaped = target.withUTF8 { $0.firstOffset(of: percent, in: start..<$0.count) != nil }
        if !escaped { return QueryParameters(received: target, from: start) }
        var query = Substring(target.utf8.dropFirst(start))
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

    /// Calls `body` with each argument's raw name and value (nil: no `=`) until it returns false,
    /// as `decode` cuts them: a final empty argument is dropped.
    private static func forEach(in bytes: UnsafeBufferPointer<UInt8>,
                                _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>?) -> Bool) {
        var start = 0
        while start < bytes.count {
            let end = bytes.firstOffset(of: ampersand, in: start..<bytes.count) ?? bytes.count
            let equals = bytes.firstOffset(of: equalsSign, in: start..<end)
            let name = UnsafeBufferPointer(rebasing: bytes[start..<(equals ?? end)])
            let value = equals.map { UnsafeBufferPointer(rebasing: bytes[($0 + 1)..<end]) }
            guard body(name, value) else { return }
            start = end + 1
        }
    }

    /// The raw value of the first argument whose name decodes to `wanted` (a bare name: empty),
    /// in a query without `%`; one pass, a name compared only when its length is the one wanted,
    /// `+` standing for a space.
    private static func value(of wanted: UnsafeBufferPointer<UInt8>,
                              in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        // Noting the wanted name itself: the pass stops at its first argument.
        value(of: wanted, in: bytes, noting: (wanted, wanted)).0
    }

    /// `value(of: wanted, in: bytes)`, and whether an argument's name decodes to each of `names`,
    /// in one pass.
    private static func value(of wanted: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>,
                              noting names: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>))
        -> (UnsafeBufferPointer<UInt8>?, (Bool, Bool)) {
        let count = bytes.count
        var start = 0
        var found: UnsafeBufferPointer<UInt8>?, noted = (false, false)
        while start < count {
            var at = start
            while at < count {
                let byte = bytes[at]
                if byte == equalsSign || byte == ampersand { break }
                at += 1
            }
            let name = UnsafeBufferPointer(rebasing: bytes[start..<at])
            let named = found == nil && name.count == wanted.count && decodes(name, to: wanted)
            if !noted.0, name.count == names.0.count, decodes(name, to: names.0) { noted.0 = true }
            if !noted.1, name.count == names.1.count, decodes(name, to: names.1) { noted.1 = true }
            if at < count, bytes[at] == equalsSign { at += 1 }
            var end = at
            while end < count, bytes[end] != ampersand { end += 1 }
            if named {
                found = UnsafeBufferPointer(rebasing: bytes[at..<end])
                if noted.0 && noted.1 { break }
            }
            start = end + 1
        }
        return (found, noted)
    }

    /// Whether a raw name without `%`, as long as `wanted`, decodes to it.
    private static func decodes(_ raw: UnsafeBufferPointer<UInt8>, to wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<raw.count where raw[index] != wanted[index] || raw[index] == plus {
            guard raw[index] == plus, wanted[index] == UInt8(ascii: " ") else { return false }
        }
        return true
    }

    /// A raw part without `%`, decoded: `+` becomes a space.
    private static func component(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        guard raw.contains(plus) else { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: raw.map { $0 == plus ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
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

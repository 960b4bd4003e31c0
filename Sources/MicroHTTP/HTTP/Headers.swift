/// An ordered list of header fields with case-insensitive lookup.
///
/// A request's headers stay as received (`ReceivedHeaders`): a look-up makes a `String` of the
/// value it finds only. A response's are strings, and a request's become strings when changed.
public struct Headers: Sendable, Sequence {
    private var storage: Storage

    private enum Storage: Sendable {
        case fields([(name: String, value: String)])
        case received(ReceivedHeaders)
    }

    /// What the fields say about compressing the body (`Response.isCompressible`), found when they
    /// are set: a page's headers are made once and shared, and its responses then do not look
    /// again. nil for a request's headers, which are looked at when asked.
    private var compressionFields: Bool?

    public init(_ fields: [(name: String, value: String)] = []) {
        storage = .fields(fields)
        compressionFields = !fields.isEmpty && Response.fieldsAllowCompression(fields)
    }

    init(received: ReceivedHeaders) { storage = .received(received) }

    /// No fields, made without looking at them: what a cleared request holds (`Request.Storage.clear`).
    static var none: Headers { Headers(storage: .fields([]), compressionFields: false) }

    private init(storage: Storage, compressionFields: Bool?) {
        self.storage = storage
        self.compressionFields = compressionFields
    }

    /// No coding chosen (no `Content-Encoding`, no `Vary: Accept-Encoding`) and a type that compresses well.
    var allowCompression: Bool { compressionFields ?? Response.fieldsAllowCompression(fields) }

    /// The memory of a request's copy of its headers; nil for fields.
    var receivedMemory: AnyObject? {
        guard case .received(let received) = storage else { return nil }
        return received.memory
    }

    /// Every field, in order.
    public var fields: [(name: String, value: String)] {
        switch storage {
        case .fields(let fields): fields
        case .received(let received): received.fields
        }
    }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        switch storage {
        case .fields(let fields): fields.first { $0.name.caseInsensitiveEquals(name) }?.value
        case .received(let received): received.values(name, limit: 1).first
        }
    }

    /// The first values of two names in one pass over the fields.
    public func first(_ one: String, _ other: String) -> (String?, String?) {
        withFirst(one, other) { one, other in
            (one.map { String(decoding: $0, as: UTF8.self) }, other.map { String(decoding: $0, as: UTF8.self) })
        }
    }

    /// Calls `body` with the first values of two names as bytes, found in one pass over the fields:
    /// a request's are read where they were received, no `String` made.
    public func withFirst<Result>(_ one: String, _ other: String,
                                  _ body: (UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        if case .received(let received) = storage { return received.withFirst(one, other, body) }
        var found: (String?, String?) = (nil, nil)
        for field in fields {
            if found.0 == nil, field.name.caseInsensitiveEquals(one) { found.0 = field.value }
            else if found.1 == nil, field.name.caseInsensitiveEquals(other) { found.1 = field.value }
        }
        return Self.withUTF8(found.0) { one in Self.withUTF8(found.1) { other in body(one, other) } }
    }

    /// Calls `body` with the first value of `name` as bytes, no `String` made for a request's.
    public func withFirst<Result>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        withFirst(name, name) { first, _ in body(first) }
    }

    /// Calls `body` with the first `User-Agent` and `Sec-CH-UA-Mobile` values as bytes (nil:
    /// absent): a request's from the places the head's pass noted, without a look-up.
    public func withUserAgent<Result>(_ body: (_ userAgent: UnsafeBufferPointer<UInt8>?,
                                               _ mobileHint: UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        if case .received(let received) = storage { return received.withUserAgent(body) }
        return withFirst("User-Agent", "Sec-CH-UA-Mobile", body)
    }

    private static func withUTF8<Result>(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard var text else { return body(nil) }
        return text.withUTF8 { body($0) }
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        switch storage {
        case .fields(let fields): fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
        case .received(let received): received.values(name)
        }
    }

    public mutating func add(_ name: String, _ value: String) {
        change { $0.append((name, value)) }
    }

    /// Replaces every field called `name` with one.
    public mutating func set(_ name: String, _ value: String) {
        change { fields in
            fields.removeAll { $0.name.caseInsensitiveEquals(name) }
            fields.append((name, value))
        }
    }

    /// Changes the fields in place: the storage lets go of them first, so an unshared array is
    /// not copied.
    private mutating func change(_ body: (inout [(name: String, value: String)]) -> Void) {
        var list = fields
        storage = .fields([])
        body(&list)
        compressionFields = Response.fieldsAllowCompression(list)
        storage = .fields(list)
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// ASCII case-insensitive comparison of two names' bytes.
    static func equalsIgnoringCase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        guard x.count == y.count else { return false }
        for index in x.indices where x[index] != y[index] {
            let lower = x[index] | 0x20
            guard lower == y[index] | 0x20, lower >= 0x61, lower <= 0x7A else { return false }
        }
        return true
    }
}

extension Headers: Equatable {
    /// The same fields in the same order, names and values byte for byte: as they are sent.
    public static func == (lhs: Headers, rhs: Headers) -> Bool {
        // Pages share their headers' storage (made once): then there is nothing to compare. Read in
        // place: through `fields` each side was copied out (retained and released).
        if case .fields(let left) = lhs.storage, case .fields(let right) = rhs.storage, left.count == right.count,
           left.withUnsafeBufferPointer({ $0.baseAddress }) == right.withUnsafeBufferPointer({ $0.baseAddress }) {
            return true
        }
        let left = lhs.fields, right = rhs.fields
        return left.count == right.count && zip(left, right).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names need; avoids allocating lowercased copies.
    /// Lengths first (stored for native strings): most names compared differ in length.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Borrowed in place: a copy for `withUTF8` cost a retain and a release of each.
        let inPlace = utf8.withContiguousStorageIfAvailable { x in
            other.utf8.withContiguousStorageIfAvailable { y in Headers.equalsIgnoringCase(x, y) }
        }
        if case .some(.some(let equal)) = inPlace { return equal }
        var a = self, b = other
        return a.withUTF8 { x in b.withUTF8 { y in Headers.equalsIgnoringCase(x, y) } }
    }
}

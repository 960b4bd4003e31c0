/// One decoded form field: a text value or an uploaded file's bytes.
public struct FormField: Sendable, Equatable {
    public let name: String
    public internal(set) var bytes: [UInt8]
    /// The uploaded file's name (multipart only).
    public let filename: String?
    /// The part's content type (multipart only).
    public let contentType: String?

    public init(name: String, bytes: [UInt8], filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.bytes = bytes
        self.filename = filename
        self.contentType = contentType
    }

    /// The value as text; the server has already refused posts whose text fields are not UTF-8.
    public var value: String { String(decoding: bytes, as: UTF8.self) }
}

/// Form fields from a urlencoded or multipart body, in the order sent; repeated names are kept.
public struct FormFields: Sendable, Sequence {
    public private(set) var fields: [FormField]

    public init(_ fields: [FormField] = []) { self.fields = fields }

    /// The first text value called `name`.
    public subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Every text value called `name`, in order.
    public func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// The one text value called `name`: a field a form has once, sent twice, is a 400 rather than
    /// a guess at which was meant.
    public func single(_ name: String) throws(HTTPError) -> String? {
        var found: String?
        for field in fields where field.name == name {
            guard found == nil else { throw Self.repeated(name) }
            found = field.value
        }
        return found
    }

    /// Every text value by its name, for a form that has each name once (a 400 otherwise).
    public func singles() throws(HTTPError) -> [String: String] {
        var values: [String: String] = [:]
        for field in fields where values.updateValue(field.value, forKey: field.name) != nil {
            throw Self.repeated(field.name)
        }
        return values
    }

    private static func repeated(_ name: String) -> HTTPError {
        HTTPError(.badRequest, "The form gives \"\(name)\" more than once; it takes one.")
    }

    /// The first uploaded file called `name`.
    public func file(_ name: String) -> FormField? { fields.first { $0.name == name && $0.filename != nil } }

    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[FormField]> { fields.makeIterator() }
}

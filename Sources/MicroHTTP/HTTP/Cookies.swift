/// A request's cookies, read from its `Cookie` header when asked: a lookup scans the header's
/// bytes and allocates only the value, where a dictionary made up front would allocate every
/// name and value of every request.
public struct Cookies: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The `Cookie` header's value (several headers joined by `; `).
    public let header: String

    public init(header: String = "") { self.header = header }

    /// The header a browser would send for these pairs (for tests and tools: a value must not
    /// hold `;`, as in a real Cookie header).
    public init(dictionaryLiteral elements: (String, String)...) {
        header = elements.map { "\($0)=\($1)" }.joined(separator: "; ")
    }

    /// The first cookie called `name`, as `CookieParser` reads the header.
    public subscript(name: String) -> String? {
        header.isEmpty ? nil : CookieParser.value(of: name, in: header)
    }

    /// Every cookie, the first of duplicate names winning.
    public var all: [String: String] { header.isEmpty ? [:] : CookieParser.parse(header) }

    public func makeIterator() -> Dictionary<String, String>.Iterator { all.makeIterator() }
}

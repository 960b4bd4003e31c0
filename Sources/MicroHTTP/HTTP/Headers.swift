/// An ordered list of header fields with case-insensitive lookup.
public struct Headers: Sendable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// The first value of `name`, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// The first values of two names in one pass over the fields.
    public func first(_ one: String, _ other: String) -> (String?, String?) {
        var found: (String?, String?) = (nil, nil)
        for field in fields {
            if found.0 == nil, field.name.caseInsensitiveEquals(one) { found.0 = field.value }
            else if found.1 == nil, field.name.caseInsensitiveEquals(other) { found.1 = field.value }
        }
        return found
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field called `name` with one.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        fields.append((name, value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

extension Headers: Equatable {
    /// The same fields in the same order, names and values byte for byte: as they are sent.
    public static func == (lhs: Headers, rhs: Headers) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names need; avoids allocating lowercased copies.
    /// Lengths first (stored for native strings): most names compared differ in length.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var a = self, b = other
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for index in x.indices where x[index] != y[index] {
                    let lower = x[index] | 0x20
                    guard lower == y[index] | 0x20, lower >= 0x61, lower <= 0x7A else { return false }
                }
                return true
            }
        }
    }
}

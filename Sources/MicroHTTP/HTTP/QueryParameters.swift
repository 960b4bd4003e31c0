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

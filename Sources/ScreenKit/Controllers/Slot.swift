/// A named place in a root view where embedded children are rendered.
public struct Slot: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The slot's name.
    public let name: String

    /// Creates a slot with the given name.
    public init(_ name: String) { self.name = name }

    /// Creates a slot from a string literal.
    public init(stringLiteral name: String) { self.name = name }

    /// The slot's name.
    public var description: String { name }

    /// The main slot; children added without a slot land here.
    public static let content: Slot = "content"
}

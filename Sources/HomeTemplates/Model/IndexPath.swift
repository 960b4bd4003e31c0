/// A position in a child's sections, as its forms post it: `"section.item"`.
public struct IndexPath: Hashable, Sendable, CustomStringConvertible {
    public let section: Int
    public let item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Parses `"2.14"`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(\.isASCII) }),
              let section = Int(parts[0]), let item = Int(parts[1]), section >= 0, item >= 0
        else { return nil }
        self.init(section: section, item: item)
    }

    public var description: String { "\(section).\(item)" }
}

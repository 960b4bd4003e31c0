/// A position in a child's sections, as its forms post it: `"section.item"`.
public struct HomeIndexPath: Hashable, Sendable, CustomStringConvertible {
    public let section: Int
    public let item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Parses `"2.14"`: two runs of one to six ASCII digits; nil for anything else (signs too:
    /// `Int` would read `"+1"` and `"-0"`, which no form of ours writes).
    public init?(_ text: String) {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ (1...6).contains($0.count) && $0.allSatisfy { (48...57).contains($0) } }),
              let section = Int(Substring(parts[0])), let item = Int(Substring(parts[1]))
        else { return nil }
        self.init(section: section, item: item)
    }

    public var description: String { "\(section).\(item)" }
}

/// A rendered page that can be served again with another visitor's token in its token holes.
public struct RenderedPage: Sendable {
    /// The page as rendered for the first visitor.
    public let bytes: [UInt8]
    /// Where that visitor's token stands, in order.
    public let tokenHoles: [Range<Int>]
    /// Where per-visitor bytes may be inserted (`HTMLWriter.markSlot`), in order.
    public let slots: [Int]

    public init(bytes: [UInt8], tokenHoles: [Range<Int>], slots: [Int] = []) {
        self.bytes = bytes
        self.tokenHoles = tokenHoles
        self.slots = slots
    }
}

/// The value a spliced body puts in each of its holes, kept inline: a response that carries a
/// visitor's token allocates nothing for it.
public struct SplicedFilling: Sendable, Equatable {
    /// The most bytes a filling holds.
    public static let capacity = 64

    private var storage = InlineArray<64, UInt8>(repeating: 0)
    /// How many bytes of the storage are the filling.
    public let count: Int

    /// A filling of `count` bytes (at most `capacity`) that `write` puts into the buffer it is given.
    public init(count: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) {
        precondition((0...Self.capacity).contains(count), "a filling holds at most \(Self.capacity) bytes")
        self.count = count
        withUnsafeMutableBytes(of: &storage) { write(UnsafeMutableRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// A filling with these bytes (at most `capacity`).
    public init(_ bytes: some Collection<UInt8>) {
        self.init(count: bytes.count) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
    }

    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        Swift.withUnsafeBytes(of: storage) { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    public static func == (lhs: SplicedFilling, rhs: SplicedFilling) -> Bool {
        lhs.withUnsafeBytes { lhs in rhs.withUnsafeBytes { rhs in lhs.elementsEqual(rhs) } }
    }
}

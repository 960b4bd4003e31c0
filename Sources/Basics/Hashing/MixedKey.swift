/// A 64-bit dictionary key hashed with one keyed mix instead of SipHash, for tables looked up on
/// every request (a visitor's viewing, a client's token buckets): SipHash cost some 90
/// instructions a word there. The process's own random key keeps anyone who chooses the keys
/// (visitor ids, client addresses) from knowing which land in the same bucket.
public struct MixedKey: Hashable, Sendable {
    public let value: UInt64

    @inlinable
    public init(_ value: UInt64) { self.value = value }

    @usableFromInline
    static let secret = UInt64.random(in: .min ... .max)

    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        Int(truncatingIfNeeded: StableHash.mix(value ^ Self.secret ^ UInt64(truncatingIfNeeded: seed)))
    }
}

/// A hash that is the same in every process and release (unlike `hashValue`, which is seeded per run):
/// 64-bit FNV-1a over the UTF-8 bytes, then MurmurHash3's fmix64 to spread similar ids apart.
/// Changing it reshuffles every visitor's rollout and experiment assignment and makes every
/// visitor sketch and filter on disk wrong.
public enum StableHash {
    public static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    /// 64-bit FNV-1a of `bytes`, continuing from `hash`.
    @inlinable @inline(__always)
    public static func fnv1a(_ bytes: UnsafeRawBufferPointer, from hash: UInt64 = fnvOffset) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* fnvPrime }
        return hash
    }

    /// 64-bit FNV-1a of the UTF-8 bytes of `string`, continuing from `hash`.
    @inlinable
    public static func fnv1a(_ string: String, from hash: UInt64 = fnvOffset) -> UInt64 {
        var copy = string
        // Native strings are contiguous already: no copy, and a loop the compiler unrolls.
        return copy.withUTF8 { fnv1a(UnsafeRawBufferPointer($0), from: hash) }
    }

    /// MurmurHash3's fmix64: every input bit moves every output bit.
    @inlinable @inline(__always)
    public static func mix(_ hash: UInt64) -> UInt64 {
        var h = hash
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    /// The mixed hash of `string`.
    @inlinable
    public static func hash(_ string: String) -> UInt64 { mix(fnv1a(string)) }

    /// A stable position in [0, 1) for `string`, uniform over distinct strings.
    @inlinable
    public static func unitInterval(_ string: String) -> Double {
        Double(hash(string) >> 11) * 0x1p-53
    }
}

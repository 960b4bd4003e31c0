/// A hash that is the same in every process and release (unlike `hashValue`, which is seeded per run):
/// 64-bit FNV-1a over the UTF-8 bytes, then MurmurHash3's fmix64 to spread similar ids apart.
/// Changing it reshuffles every visitor's rollout and experiment assignment.
public enum StableHash {
    /// 64-bit FNV-1a of the UTF-8 bytes of `string`.
    public static func fnv1a(_ string: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in string.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The mixed hash of `string`.
    public static func hash(_ string: String) -> UInt64 {
        var h = fnv1a(string)
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    /// A stable position in [0, 1) for `string`, uniform over distinct strings.
    public static func unitInterval(_ string: String) -> Double {
        Double(hash(string) >> 11) * 0x1p-53
    }
}

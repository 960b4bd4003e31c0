/// Strings to ids for the writer's hot path, hashing the UTF-8 bytes with FNV-1a: Swift's
/// `Dictionary` hashes with SipHash, which cost more per event than encoding the line.
struct StringTable {
    private var keys: [String?]
    private var ids: [UInt32]
    private var count = 0
    private var mask: Int

    init(capacity: Int = 64) {
        let size = max(16, capacity.nextPowerOfTwo)
        keys = Array(repeating: nil, count: size)
        ids = Array(repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    static func hash(_ string: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let done: Bool? = string.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return true
        }
        if done == nil {
            for byte in string.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    @inline(__always)
    func find(_ string: String) -> UInt32? {
        var slot = Self.hash(string) & mask
        while let key = keys[slot] {
            if key == string { return ids[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    mutating func insert(_ string: String, id: UInt32) {
        if (count + 1) * 2 > keys.count { grow() }
        var slot = Self.hash(string) & mask
        while keys[slot] != nil { slot = (slot + 1) & mask }
        keys[slot] = string
        ids[slot] = id
        count += 1
    }

    private mutating func grow() {
        let old = zip(keys, ids).compactMap { key, id in key.map { ($0, id) } }
        self = StringTable(capacity: keys.count * 2)
        for (key, id) in old { insert(key, id: id) }
    }
}

extension Int {
    var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}

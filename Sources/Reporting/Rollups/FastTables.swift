/// Open-addressing tables for the writer's hot path: Swift's `Dictionary` hashes with SipHash,
/// which cost more per event than encoding the line; these use a multiply-shift hash instead.

/// Strings to ids, hashing the UTF-8 bytes (FNV-1a, a word at a time).
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

/// Counts by `CountKey`, for one batch; emptied into a `Rollup` after each write.
struct CountTable {
    private var keys: [CountKey]
    private var counts: [Int]
    private var used: [Int] = []
    private var mask: Int

    init(capacity: Int = 1024) {
        let size = max(16, capacity.nextPowerOfTwo)
        keys = Array(repeating: CountKey(minute: 0, event: 0, layout: 0, item: 0), count: size)
        counts = Array(repeating: 0, count: size)
        mask = size - 1
    }

    var isEmpty: Bool { used.isEmpty }

    @inline(__always)
    mutating func add(_ key: CountKey) {
        let packed = UInt64(UInt32(bitPattern: key.minute)) &* 0x9E37_79B9_7F4A_7C15
            ^ (UInt64(key.event) << 40 | UInt64(key.layout) << 20 | UInt64(key.item)) &* 0xC2B2_AE3D_27D4_EB4F
        var slot = Int(truncatingIfNeeded: packed >> 32) & mask
        while counts[slot] != 0 {
            if keys[slot] == key {
                counts[slot] += 1
                return
            }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        counts[slot] = 1
        used.append(slot)
        if used.count * 2 > keys.count { grow() }
    }

    /// Adds every count into `counts` and empties the table.
    mutating func drain(into target: inout [CountKey: Int]) {
        for slot in used {
            target[keys[slot], default: 0] += counts[slot]
            counts[slot] = 0
        }
        used.removeAll(keepingCapacity: true)
    }

    private mutating func grow() {
        var bigger = CountTable(capacity: keys.count * 2)
        for slot in used {
            bigger.add(keys[slot])
            let index = bigger.used.last!
            bigger.counts[index] = counts[slot]
        }
        self = bigger
    }
}

extension Int {
    var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}

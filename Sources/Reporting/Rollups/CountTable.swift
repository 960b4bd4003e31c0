/// An open-addressing table with a multiply-shift hash, for the writer's hot path (see `StringTable`).
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

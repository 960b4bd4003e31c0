/// An open-addressing table with a multiply-shift hash, for the writer's hot path (see `StringTable`).
/// Counts by a rollup key (`CountKey`, `GroupKey`), for one batch; emptied into a `Rollup` after
/// each write.
struct CountTable<Key: TableKey> {
    private var keys: [Key]
    private var counts: [Int]
    private var used: [Int] = []
    private var mask: Int

    init(capacity: Int = 1024) {
        let size = max(16, capacity.nextPowerOfTwo)
        keys = Array(repeating: Key.empty, count: size)
        counts = Array(repeating: 0, count: size)
        mask = size - 1
    }

    var isEmpty: Bool { used.isEmpty }

    @inline(__always)
    mutating func add(_ key: Key) {
        var slot = Int(truncatingIfNeeded: key.tableHash >> 32) & mask
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
    @inline(__always)
    mutating func drain(into target: inout [Key: Int]) {
        // Most batches count no experiment: nothing to drain, nothing to call.
        if used.isEmpty { return }
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

/// A key a `CountTable` counts by: a multiply-shift hash of its fields, and a value for empty slots.
protocol TableKey: Hashable {
    static var empty: Self { get }
    var tableHash: UInt64 { get }
}

extension CountKey: TableKey {
    static var empty: CountKey { CountKey(minute: 0, event: 0, layout: 0, item: 0) }

    @inline(__always)
    var tableHash: UInt64 {
        UInt64(UInt32(bitPattern: minute)) &* 0x9E37_79B9_7F4A_7C15
            ^ (UInt64(event) << 40 | UInt64(layout) << 20 | UInt64(item)) &* 0xC2B2_AE3D_27D4_EB4F
    }
}

extension GroupKey: TableKey {
    static var empty: GroupKey { GroupKey(minute: 0, experiment: 0, group: 0, event: 0, layout: 0) }

    @inline(__always)
    var tableHash: UInt64 {
        (UInt64(UInt32(bitPattern: minute)) | UInt64(experiment) << 32) &* 0x9E37_79B9_7F4A_7C15
            ^ (UInt64(group) << 40 | UInt64(event) << 20 | UInt64(layout)) &* 0xC2B2_AE3D_27D4_EB4F
    }
}

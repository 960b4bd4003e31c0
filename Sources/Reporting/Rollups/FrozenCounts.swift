/// A closed segment's per-minute counts, sorted by minute: a fifth of a dictionary's memory, read
/// in order, and a range found by binary search.
struct FrozenCounts: Sendable {
    private(set) var keys: [CountKey] = []
    private(set) var counts: [UInt32] = []

    init(_ table: [CountKey: Int]) {
        let sorted = table.sorted { $0.key.minute < $1.key.minute }
        keys = sorted.map(\.key)
        counts = sorted.map { UInt32(clamping: $0.value) }
    }

    var count: Int { keys.count }

    /// Calls `body` with each key and count whose minute is in `[from, to)`.
    @inline(__always)
    func forEach(from: Int32, to: Int32, _ body: (CountKey, Int) -> Void) {
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid].minute < from { low = mid + 1 } else { high = mid }
        }
        keys.withUnsafeBufferPointer { keys in
            counts.withUnsafeBufferPointer { counts in
                var index = low
                while index < keys.count, keys[index].minute < to {
                    body(keys[index], Int(counts[index]))
                    index += 1
                }
            }
        }
    }
}

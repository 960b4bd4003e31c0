/// A key counted per minute (or per hour or day: the minute it starts).
protocol MinuteKeyed: Hashable, Sendable {
    var minute: Int32 { get }
}

extension CountKey: MinuteKeyed {}
extension GroupKey: MinuteKeyed {}

/// A closed segment's counts, sorted by minute: a fifth of a dictionary's memory, read in order,
/// and a range found by binary search.
struct FrozenCounts<Key: MinuteKeyed>: Sendable {
    private(set) var keys: [Key] = []
    private(set) var counts: [UInt32] = []

    init(_ table: [Key: Int]) {
        let sorted = table.sorted { $0.key.minute < $1.key.minute }
        keys = sorted.map(\.key)
        counts = sorted.map { UInt32(clamping: $0.value) }
    }

    var count: Int { keys.count }

    /// Calls `body` with each key and count whose minute is in `[from, to)`.
    @inline(__always)
    func forEach(from: Int32, to: Int32, _ body: (Key, Int) -> Void) {
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

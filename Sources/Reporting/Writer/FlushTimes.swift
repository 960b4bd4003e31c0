import Synchronization

/// How long the writer's flushes take (the chunk's `write` and, with fsync on, its `fsync`): a
/// histogram for `/metrics`. Only the writer thread records, once per chunk, so one lock suffices.
public final class FlushTimes: Sendable {
    /// Upper bounds of the buckets, in seconds.
    public static let buckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    /// Cumulative counts at each bound (and +Inf), the sum of seconds, the count.
    public struct Snapshot: Sendable, Equatable {
        public var cumulative: [Int]
        public var sum: Double
        public var count: Int { cumulative.last ?? 0 }
    }

    private struct Counts {
        var buckets = [Int](repeating: 0, count: FlushTimes.buckets.count + 1)
        var sum = 0.0
    }

    private let counts = Mutex(Counts())

    init() {}

    func record(seconds: Double) {
        let bucket = Self.buckets.firstIndex { seconds <= $0 } ?? Self.buckets.count
        counts.withLock { counts in
            counts.buckets[bucket] += 1
            counts.sum += seconds
        }
    }

    public var snapshot: Snapshot {
        counts.withLock { counts in
            var running = 0
            return Snapshot(cumulative: counts.buckets.map { running += $0; return running }, sum: counts.sum)
        }
    }
}

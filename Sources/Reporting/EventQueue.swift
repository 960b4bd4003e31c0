/// A bounded FIFO of events that drops the oldest when full; O(1) amortised append.
struct EventQueue {
    let capacity: Int
    private var storage: [ReportEvent] = []
    /// Events before `head` are dropped and wait for the next compaction.
    private var head = 0
    /// Events dropped since the last `take`.
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { storage.count - head }

    mutating func append(_ event: consuming ReportEvent) {
        if count >= capacity {
            head += 1
            dropped += 1
            if head >= capacity {
                storage.removeFirst(head)
                head = 0
            }
        }
        storage.append(consume event)
    }

    /// Moves all queued events into `batch` (which must be empty), keeping its capacity for reuse.
    mutating func take(into batch: inout [ReportEvent]) -> (dropped: Int, count: Int) {
        let result = (dropped, count)
        dropped = 0
        if head == 0 {
            swap(&storage, &batch)
        } else {
            batch.append(contentsOf: storage[head...])
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return result
    }
}

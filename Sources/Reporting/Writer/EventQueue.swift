import Basics

/// An event waiting for the writer, with the callback to tell once it is written (or dropped).
struct PendingEvent {
    var event: ReportEvent
    var whenWritten: (@Sendable (Bool) -> Void)?
    /// Set when the recorder may withdraw the event while it waits.
    var claim: WriteClaim? = nil
    /// The event's fixed parts, when it was made from a template: `event` then holds only its
    /// name, time, visitor and request, and the line is copied together from the template's pieces.
    var template: EventTemplate? = nil
    /// The visitor of an event made from a template, carried as the id's value (`event.visitor`
    /// is then nil): the line spells its digits, and nothing is allocated or released for it.
    var visitor: VisitorID? = nil
    /// The request of an event made from a template, carried as the id's value (`event.request`
    /// is then nil): the line spells it as the id's text would be.
    var requestID: RequestID? = nil

    /// At least the length of the event's line.
    var lineBound: Int {
        @inline(__always) get {
            // Through the optional in place: binding the template retained and released it.
            guard let fixed = template?.lineBound else { return event.jsonLineBound }
            return fixed + ReportEvent.lineBound(visitor: nil, request: event.request)
                + (visitor == nil ? 0 : VisitorID.digitCount) + (requestID == nil ? 0 : RequestID.capacity)
        }
    }
}

/// A bounded FIFO of events that drops the oldest when full; O(1) amortised append.
struct EventQueue {
    let capacity: Int
    private var storage: [PendingEvent] = []
    /// Events before `head` are dropped and wait for the next compaction.
    private var head = 0
    /// Events dropped since the last `take`.
    private(set) var dropped = 0
    /// Callbacks of dropped events, for the writer thread to call with `false`.
    private(set) var droppedCallbacks: [@Sendable (Bool) -> Void] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { storage.count - head }

    mutating func append(_ pending: consuming PendingEvent) {
        if count >= capacity {
            if let callback = storage[head].whenWritten { droppedCallbacks.append(callback) }
            storage[head].whenWritten = nil
            head += 1
            dropped += 1
            if head >= capacity {
                storage.removeFirst(head)
                head = 0
            }
        }
        storage.append(consume pending)
    }

    /// Moves all queued events into `batch` (which must be empty), keeping its capacity for reuse.
    mutating func take(into batch: inout [PendingEvent]) -> (dropped: Int, count: Int, callbacks: [@Sendable (Bool) -> Void]) {
        let result = (dropped, count, droppedCallbacks)
        dropped = 0
        if !droppedCallbacks.isEmpty { droppedCallbacks = [] }
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

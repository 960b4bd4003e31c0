import Synchronization

/// Who decides a queued event's fate: the writer claims it for each write attempt, its recorder
/// may withdraw it while it waits. A withdrawn event is never written, so a client told "not
/// kept" (a `POST /report` answered 503) does not find it in the log after all.
public final class WriteClaim: Sendable {
    private enum State: UInt8 {
        case waiting
        /// In a chunk being written: the writer says how it ended.
        case writing
        /// Withdrawn while being written: dropped unless that write succeeds.
        case writingWithdrawn
        case withdrawn
    }

    private let state = Atomic<UInt8>(State.waiting.rawValue)

    public init() {}

    /// Takes the event out of the log unless a write holding it is under way; true if it will
    /// never be written. If false, the writer tells the event's `whenWritten` how it ended.
    public func withdraw() -> Bool {
        if exchange(.waiting, .withdrawn) { return true }
        if exchange(.writing, .writingWithdrawn) { return false }
        return state.load(ordering: .acquiring) == State.withdrawn.rawValue
    }

    /// The writer's, before a write attempt: false if the event was withdrawn (drop it).
    func claim() -> Bool { exchange(.waiting, .writing) }

    /// The writer's, after a write attempt that did not write the event: true if it stays queued,
    /// false if it was withdrawn meanwhile (drop it).
    func release() -> Bool {
        if exchange(.writing, .waiting) { return true }
        state.store(State.withdrawn.rawValue, ordering: .releasing)
        return false
    }

    private func exchange(_ expected: State, _ desired: State) -> Bool {
        state.compareExchange(expected: expected.rawValue, desired: desired.rawValue, ordering: .acquiringAndReleasing).exchanged
    }
}

import Basics
import Synchronization

/// The combination of groups recent visitors were hashed into, under one version of the toggles
/// (`FeatureDecisions.Prepared` holds it, so new toggles start empty). Hashing a visitor (FNV-1a
/// over their id's 32 digits for each experiment, then the weights) costs about 400 instructions;
/// a visitor who comes back finds theirs here for about 40. A fixed table where a visitor takes
/// the place of whoever held it; each slot is read without a lock under a sequence number that is
/// odd while it is written, and a reader that sees it change (or odd) hashes instead. Exact: a
/// slot answers only for the id it holds. A clash, or a client choosing ids alike, costs the hash.
final class RecentGroups: Sendable {
    struct Slot: ~Copyable {
        let sequence = Atomic<UInt64>(0)
        let high = Atomic<UInt64>(0)
        let low = Atomic<UInt64>(0)
        /// The combination's index plus one: 0 in a slot never written.
        let combination = Atomic<Int>(0)
    }

    private typealias Slots = InlineArray<1024, Slot>
    static let capacity = Slots.count
    private let slots = Slots { _ in Slot() }
    private let secret = UInt64.random(in: .min ... .max)

    /// The combination kept for `visitor`, if their slot holds it.
    func combination(of visitor: VisitorID) -> Int? {
        let index = place(of: visitor)
        let before = slots[index].sequence.load(ordering: .acquiring)
        let high = slots[index].high.load(ordering: .relaxed)
        let low = slots[index].low.load(ordering: .relaxed)
        let kept = slots[index].combination.load(ordering: .relaxed)
        atomicMemoryFence(ordering: .acquiring)
        let after = slots[index].sequence.load(ordering: .relaxed)
        guard before & 1 == 0, before == after, kept > 0, high == visitor.high, low == visitor.low else { return nil }
        return kept - 1
    }

    /// Keeps `combination` for `visitor` in their slot, unless another thread is writing it.
    func keep(_ combination: Int, for visitor: VisitorID) {
        let index = place(of: visitor)
        let sequence = slots[index].sequence.load(ordering: .relaxed)
        guard sequence & 1 == 0,
              slots[index].sequence.compareExchange(expected: sequence, desired: sequence &+ 1, ordering: .acquiring).exchanged
        else { return }
        atomicMemoryFence(ordering: .releasing)
        slots[index].high.store(visitor.high, ordering: .relaxed)
        slots[index].low.store(visitor.low, ordering: .relaxed)
        slots[index].combination.store(combination + 1, ordering: .relaxed)
        slots[index].sequence.store(sequence &+ 2, ordering: .releasing)
    }

    /// Ids are random, but a client picks its own cookie: mixed with a key of this table's, ids
    /// chosen alike do not land in one slot.
    func place(of visitor: VisitorID) -> Int {
        Int(truncatingIfNeeded: StableHash.mix(visitor.high ^ visitor.low.byteSwapped ^ secret)) & (Self.capacity - 1)
    }
}

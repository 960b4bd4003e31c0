import Basics
import MicroHTTP
import Synchronization

/// The tokens of recent visitors, as the pages' holes take them. A token is a pure function of
/// the visitor id under the secret, but its HMAC-SHA256 is two SHA-256 compressions on every home
/// request; a returning visitor's costs a look-up here instead. Bounded: a fixed table in a few
/// shards, each behind its own lock, where a visitor replaces whoever held their place.
final class CSRFTokenCache: Sendable {
    private typealias Entries = InlineArray<64, Entry?>
    private typealias Shards = InlineArray<8, Mutex<Entries>>
    static let entriesPerShard = Entries.count
    static let shardCount = Shards.count

    private struct Entry {
        let visitor: VisitorID
        let filling: SplicedFilling
    }

    /// Held inline: an array of shard objects cost a retain and a release per look-up.
    private let shards = Shards { _ in Mutex(Entries(repeating: nil)) }

    /// The token of `visitor`: kept, or made by `make` and kept in place of the one there.
    func filling(for visitor: VisitorID, make: (VisitorID) -> SplicedFilling) -> SplicedFilling {
        let (shard, slot) = Self.place(of: visitor)
        if let kept = shards[shard].withLock({ entries in
            entries[slot].flatMap { $0.visitor == visitor ? $0.filling : nil }
        }) { return kept }
        // Made outside the lock: the HMAC is the slow part, and two threads making one visitor's
        // token make the same bytes.
        let made = make(visitor)
        shards[shard].withLock { $0[slot] = Entry(visitor: visitor, filling: made) }
        return made
    }

    /// Where `visitor` is kept. Ids are random, but a client picks its own cookie: the bits are
    /// mixed so that ids chosen alike do not all land in one place (a clash only costs an HMAC).
    static func place(of visitor: VisitorID) -> (shard: Int, slot: Int) {
        let mixed = StableHash.mix(visitor.high ^ visitor.low.byteSwapped)
        return (Int(truncatingIfNeeded: mixed % UInt64(shardCount)),
                Int(truncatingIfNeeded: (mixed >> 32) % UInt64(entriesPerShard)))
    }
}

import Synchronization

/// Bytes with holes that every response fills with its own value: a cached page and the
/// visitor's CSRF token. Responses go out from copies of the bytes that are kept and reused: a
/// copy that comes back still holds the page, so the next response only overwrites the holes
/// instead of copying the whole page again.
public final class SplicedBytes: Sendable {
    public let base: [UInt8]
    /// Sorted, disjoint and inside `base`.
    public let holes: [Range<Int>]

    /// Copies kept for reuse; with more in flight at once, the extra ones are freed on return.
    static let keptCopies = 16
    private let idle = Mutex<[SplicedCopy]>([])

    public init(base: [UInt8], holes: [Range<Int>]) {
        precondition(zip(holes, holes.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound }
                     && (holes.last?.upperBound ?? 0) <= base.count, "holes must be sorted, disjoint, inside")
        self.base = base
        self.holes = holes
    }

    /// A copy of `base` with `filling` in every hole, to be handed back with `SplicedCopy.giveBack`;
    /// the template lives until then. Nil when `filling` does not fit the holes exactly (the body
    /// then changes length and is written out whole) or memory ran out.
    func lease(filling: SplicedFilling) -> SplicedCopy? {
        guard holes.allSatisfy({ $0.count == filling.count }) else { return nil }
        let copy: SplicedCopy
        if let reused = idle.withLock({ $0.popLast() }) {
            copy = reused
        } else {
            guard let fresh = base.withUnsafeBytes(SplicedCopy.init) else { return nil }
            copy = fresh
        }
        copy.lend(from: self)
        filling.withUnsafeBytes { filling in
            guard let address = filling.baseAddress else { return }
            for hole in holes { (copy.bytes + hole.lowerBound).copyMemory(from: address, byteCount: filling.count) }
        }
        return copy
    }

    /// Copies waiting for the next response.
    var idleCount: Int { idle.withLock { $0.count } }

    /// Keeps a copy that came back for the next response, unless enough are kept already.
    func keep(_ copy: SplicedCopy) {
        idle.withLock { idle in
            if idle.count < Self.keptCopies { idle.append(copy) }
        }
    }
}

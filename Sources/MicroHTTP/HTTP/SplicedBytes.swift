import Basics
import CBrotli
import Synchronization

/// Bytes with holes that every response fills with its own value: a cached page and the
/// visitor's CSRF token. Responses go out from copies of the bytes that are kept and reused: a
/// copy that comes back still holds the page, so the next response only overwrites the holes
/// instead of copying the whole page again.
///
/// A page template also carries its gzip and brotli forms, compressed once (`prepareEncodings`)
/// into templates of their own whose holes are the tokens inside the compressed bytes.
public final class SplicedBytes: Sendable {
    public let base: [UInt8]
    /// Sorted, disjoint and inside `base`.
    public let holes: [Range<Int>]
    /// Where a response may insert bytes of any length (a visitor's own rows), or nil: an offset
    /// in `base`; in the gzip form, the byte-aligned place a raw DEFLATE run of them goes.
    public let slot: Int?
    /// For a gzip form: the CRC-32 in the trailer, which every filling changes.
    let checksum: SplicedChecksum?
    /// For a gzip form with a slot: the CRC-32 with bytes inserted.
    let slotChecksum: SlotChecksum?
    /// The lengths of insert a brotli form is made for (`brotliForInsert`); for a brotli form,
    /// the one length its slot takes.
    let slotCapacities: [Int]
    private let gzip = LazyReference<SplicedBytes>()
    private let brotli = LazyReference<SplicedBytes>()
    /// The gzip form cut at the slot, for responses that insert bytes there: its parts after the
    /// slot cannot refer back before it, which costs some bytes, so a response without an
    /// insert keeps the form that has no cut.
    private let gzipCut = LazyReference<SplicedBytes>()
    /// The brotli forms with an uncompressed meta-block at the slot, one per insert length
    /// made (`slotCapacities`), and the pool they are made on.
    private let brotliCuts = Mutex<BrotliCuts>(BrotliCuts())

    private struct BrotliCuts {
        var pool: WorkPool?
        var forms: [Int: SplicedBytes] = [:]
        /// Lengths asked for, made or being made (or failed: not tried again).
        var asked: Set<Int> = []
    }

    /// Copies kept for reuse; with more in flight at once, the extra ones are freed on return.
    static let keptCopies = 16
    /// A copy given back while none waited here, taken and put back with one atomic exchange
    /// each, without the lock: with one response of a page in flight at a time (mostly), the copy
    /// goes back and forth through here alone. Holds a retained `SplicedCopy` as its address's bits
    /// (0: none); the others wait in `idle`.
    private let spare = Atomic<UInt>(0)
    private let idle = Mutex<[SplicedCopy]>([])
    /// Copies with bytes inserted at the slot, each as long as its insert made it, the most
    /// recently given back last (`SplicedBytes+Insert`).
    let insertedIdle = Mutex<[SplicedCopy]>([])

    deinit {
        if let raw = UnsafeRawPointer(bitPattern: spare.load(ordering: .acquiring)) {
            Unmanaged<SplicedCopy>.fromOpaque(raw).release()
        }
    }

    /// `slot`: where a response may insert bytes; not inside a hole. `slotCapacities`: the
    /// lengths of insert the brotli form takes at the slot (the app pads its inserts to one of
    /// them); an insert of another length goes out in gzip or compressed per response.
    public convenience init(base: [UInt8], holes: [Range<Int>], slot: Int? = nil, slotCapacities: [Int] = []) {
        self.init(base: base, holes: holes, slot: slot, checksum: nil, slotCapacities: slotCapacities)
    }

    init(base: [UInt8], holes: [Range<Int>], slot: Int? = nil, checksum: SplicedChecksum?,
         slotChecksum: SlotChecksum? = nil, slotCapacities: [Int] = []) {
        precondition(zip(holes, holes.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound }
                     && (holes.last?.upperBound ?? 0) <= base.count, "holes must be sorted, disjoint, inside")
        precondition(slot.map { slot in (0...base.count).contains(slot)
                         && !holes.contains { $0.lowerBound < slot && slot < $0.upperBound } } ?? true,
                     "the slot must be inside the bytes and outside the holes")
        self.base = base
        self.holes = holes
        self.slot = slot
        self.checksum = checksum
        self.slotChecksum = slotChecksum
        self.slotCapacities = slotCapacities
    }

    /// For a brotli form cut at the slot: the length of insert it takes.
    var slotCapacity: Int? { slotCapacities.count == 1 ? slotCapacities[0] : nil }

    /// This page compressed with `coding`, once `prepareEncodings` has made it; nil before, for
    /// identity, or when the page could not be spliced (the server then compresses it per response).
    public func encoded(_ coding: ContentCoding) -> SplicedBytes? {
        switch coding {
        case .identity: nil
        case .gzip: gzip.load()
        case .brotli: brotli.load()
        }
    }

    /// The gzip form cut at the slot (`GzipSplicer.splice(_:holes:slot:)`), once made.
    var gzipForInsert: SplicedBytes? { gzipCut.load() }

    /// Compresses the page into its gzip (level 9) and brotli (quality 11) forms, now. Takes some
    /// 60 ms for a 35 KB page: call it off the server's threads (`prepareEncodings(on:)`).
    public func prepareEncodings() {
        base.withUnsafeBytes { page in
            if gzip.load() == nil, let made = GzipSplicer.splice(page, holes: holes) { _ = gzip.storeIfNil(made) }
            if brotli.load() == nil, let made = BrotliSplicer.splice(page, holes: holes) { _ = brotli.storeIfNil(made) }
            if let slot, gzipCut.load() == nil, let made = GzipSplicer.splice(page, holes: holes, slot: slot) {
                _ = gzipCut.storeIfNil(made)
            }
        }
    }

    /// `prepareEncodings` on `pool`; responses until then are compressed one by one (as they
    /// stay when the pool's queue is full).
    public func prepareEncodings(on pool: WorkPool) {
        brotliCuts.withLock { $0.pool = pool }
        _ = pool.submit { [self] in
            prepareEncodings()
            Self.giveBackHeap()
        }
    }

    /// The brotli form that takes an insert of `count` bytes at the slot, once made. The first
    /// ask for a length of `slotCapacities` has it made on the pool `prepareEncodings(on:)` was
    /// given (quality 11, some 60 ms); until then such responses go in another coding.
    func brotliForInsert(count: Int) -> SplicedBytes? {
        guard slot != nil, slotCapacities.contains(count) else { return nil }
        let (form, pool) = brotliCuts.withLock { cuts -> (SplicedBytes?, WorkPool?) in
            if let form = cuts.forms[count] { return (form, nil) }
            guard let pool = cuts.pool, cuts.asked.insert(count).inserted else { return (nil, nil) }
            return (nil, pool)
        }
        if let pool {
            _ = pool.submit { [self] in
                prepareBrotliForInsert(count: count)
                Self.giveBackHeap()
            }
        }
        return form
    }

    /// Compressing at quality 11 and level 9 takes a few MiB of heap for a moment; glibc, which
    /// raises its mmap threshold as big blocks are freed, would keep them resident for good.
    private static func giveBackHeap() {
        #if canImport(Glibc)
            malloc_trim(0)
        #endif
    }

    /// Makes the brotli form for inserts of `count` bytes now (nil when it cannot be spliced).
    @discardableResult
    public func prepareBrotliForInsert(count: Int) -> SplicedBytes? {
        guard let slot, slotCapacities.contains(count) else { return nil }
        if let made = brotliCuts.withLock({ $0.forms[count] }) { return made }
        let made = base.withUnsafeBytes { BrotliSplicer.splice($0, holes: holes, slot: slot, capacity: count) }
        brotliCuts.withLock { cuts in
            cuts.asked.insert(count)
            if let made { cuts.forms[count] = made }
        }
        return made
    }

    /// The bytes with `filling` in every hole (and the checksum it makes), as one array.
    public func filled(with filling: SplicedFilling) -> [UInt8] {
        var bytes = base
        bytes.withUnsafeMutableBytes { if let address = $0.baseAddress { fill(address, with: filling) } }
        return bytes
    }

    private func fill(_ bytes: UnsafeMutableRawPointer, with filling: SplicedFilling) {
        filling.withUnsafeBytes { filling in
            guard let address = filling.baseAddress else { return }
            for hole in holes { (bytes + hole.lowerBound).copyMemory(from: address, byteCount: filling.count) }
            checksum?.write(into: bytes, token: filling)
        }
    }

    /// A copy of `base` with `filling` in every hole, to be handed back with `SplicedCopy.giveBack`;
    /// the template lives until then. Nil when `filling` does not fit the holes exactly (the body
    /// then changes length and is written out whole) or memory ran out.
    func lease(filling: SplicedFilling) -> SplicedCopy? {
        guard holes.allSatisfy({ $0.count == filling.count }) else { return nil }
        let copy: SplicedCopy
        if let raw = UnsafeRawPointer(bitPattern: spare.exchange(0, ordering: .acquiringAndReleasing)) {
            copy = Unmanaged<SplicedCopy>.fromOpaque(raw).takeRetainedValue()
        } else if let reused = idle.withLock({ $0.popLast() }) {
            copy = reused
        } else {
            guard let fresh = base.withUnsafeBytes(SplicedCopy.init) else { return nil }
            copy = fresh
        }
        copy.lend(from: self)
        fill(copy.bytes, with: filling)
        return copy
    }

    /// Copies waiting for the next response.
    var idleCount: Int { idle.withLock { $0.count } + (spare.load(ordering: .acquiring) == 0 ? 0 : 1) }

    /// Keeps a copy that came back for the next response, unless enough are kept already.
    func keep(_ copy: SplicedCopy) {
        if copy.count != base.count { return keepInserted(copy) }
        let raw = Unmanaged.passRetained(copy).toOpaque()
        if spare.compareExchange(expected: 0, desired: UInt(bitPattern: raw), ordering: .acquiringAndReleasing).exchanged {
            return
        }
        Unmanaged<SplicedCopy>.fromOpaque(raw).release()
        idle.withLock { idle in
            if idle.count < Self.keptCopies - 1 { idle.append(copy) }
        }
    }
}

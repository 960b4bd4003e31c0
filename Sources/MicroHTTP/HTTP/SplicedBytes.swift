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
    /// For a gzip form: the CRC-32 in the trailer, which every filling changes.
    let checksum: SplicedChecksum?
    private let gzip = AtomicLazyReference<SplicedBytes>()
    private let brotli = AtomicLazyReference<SplicedBytes>()

    /// Copies kept for reuse; with more in flight at once, the extra ones are freed on return.
    static let keptCopies = 16
    private let idle = Mutex<[SplicedCopy]>([])

    public convenience init(base: [UInt8], holes: [Range<Int>]) {
        self.init(base: base, holes: holes, checksum: nil)
    }

    init(base: [UInt8], holes: [Range<Int>], checksum: SplicedChecksum?) {
        precondition(zip(holes, holes.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound }
                     && (holes.last?.upperBound ?? 0) <= base.count, "holes must be sorted, disjoint, inside")
        self.base = base
        self.holes = holes
        self.checksum = checksum
    }

    /// This page compressed with `coding`, once `prepareEncodings` has made it; nil before, for
    /// identity, or when the page could not be spliced (the server then compresses it per response).
    public func encoded(_ coding: ContentCoding) -> SplicedBytes? {
        switch coding {
        case .identity: nil
        case .gzip: gzip.load()
        case .brotli: brotli.load()
        }
    }

    /// Compresses the page into its gzip (level 9) and brotli (quality 11) forms, now. Takes some
    /// 60 ms for a 35 KB page: call it off the server's threads (`prepareEncodings(on:)`).
    public func prepareEncodings() {
        base.withUnsafeBytes { page in
            if gzip.load() == nil, let made = GzipSplicer.splice(page, holes: holes) { _ = gzip.storeIfNil(made) }
            if brotli.load() == nil, let made = BrotliSplicer.splice(page, holes: holes) { _ = brotli.storeIfNil(made) }
        }
    }

    /// `prepareEncodings` on `pool`; responses until then are compressed one by one (as they
    /// stay when the pool's queue is full).
    public func prepareEncodings(on pool: WorkPool) {
        _ = pool.submit { [self] in prepareEncodings() }
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
        if let reused = idle.withLock({ $0.popLast() }) {
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
    var idleCount: Int { idle.withLock { $0.count } }

    /// Keeps a copy that came back for the next response, unless enough are kept already.
    func keep(_ copy: SplicedCopy) {
        idle.withLock { idle in
            if idle.count < Self.keptCopies { idle.append(copy) }
        }
    }
}

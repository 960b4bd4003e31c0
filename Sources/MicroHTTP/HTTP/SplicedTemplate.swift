import Glibc
import Synchronization

/// Bytes with holes that every response fills with its own value: a cached page and the
/// visitor's CSRF token. Responses go out from copies of the bytes that are kept and reused: a
/// copy that comes back from libmicrohttpd still holds the page, so the next response only
/// overwrites the holes instead of copying the whole page again.
public final class SplicedTemplate: Sendable {
    public let base: [UInt8]
    /// Sorted, disjoint and inside `base`.
    public let holes: [Range<Int>]

    /// Copies kept for reuse; with more in flight at once, the extra ones are freed on return.
    static let keptCopies = 16
    /// A copy starts with the address of its template, which the free callback reads.
    static let header = 16
    /// Start addresses of idle copies, as integers: raw pointers are not `Sendable`.
    private let idle = Mutex<[UInt]>([])

    public init(base: [UInt8], holes: [Range<Int>]) {
        precondition(zip(holes, holes.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound }
                     && (holes.last?.upperBound ?? 0) <= base.count, "holes must be sorted, disjoint, inside")
        self.base = base
        self.holes = holes
    }

    deinit {
        for start in idle.withLock({ $0 }) { free(UnsafeMutableRawPointer(bitPattern: start)) }
    }

    /// A copy of `base` with `filling` in every hole, to be handed back with `giveBack`; the
    /// template lives until then. Nil when `filling` does not fit the holes exactly (the body
    /// then changes length and is written out whole) or memory ran out.
    func lease(filling: SplicedFilling) -> UnsafeMutableRawPointer? {
        guard holes.allSatisfy({ $0.count == filling.count }) else { return nil }
        let start: UnsafeMutableRawPointer
        if let reused = idle.withLock({ $0.popLast() }) {
            start = UnsafeMutableRawPointer(bitPattern: reused)!
        } else {
            guard let fresh = malloc(Self.header + max(base.count, 1)) else { return nil }
            base.withUnsafeBytes { base in
                if let address = base.baseAddress { (fresh + Self.header).copyMemory(from: address, byteCount: base.count) }
            }
            start = fresh
        }
        start.storeBytes(of: Unmanaged.passRetained(self).toOpaque(), as: UnsafeMutableRawPointer.self)
        let bytes = start + Self.header
        filling.withUnsafeBytes { filling in
            guard let address = filling.baseAddress else { return }
            for hole in holes { (bytes + hole.lowerBound).copyMemory(from: address, byteCount: filling.count) }
        }
        return bytes
    }

    /// Takes back a copy from `lease` (the address of its bytes).
    static func giveBack(_ bytes: UnsafeMutableRawPointer) {
        let start = bytes - header
        let template = Unmanaged<SplicedTemplate>.fromOpaque(start.load(as: UnsafeMutableRawPointer.self))
        template.takeUnretainedValue().keep(start)
        template.release()
    }

    private func keep(_ start: UnsafeMutableRawPointer) {
        let kept = idle.withLock { idle in
            guard idle.count < Self.keptCopies else { return false }
            idle.append(UInt(bitPattern: start))
            return true
        }
        if !kept { free(start) }
    }
}

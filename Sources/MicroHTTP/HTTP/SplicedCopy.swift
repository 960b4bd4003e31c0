import Glibc

/// One copy of a `SplicedBytes`'s bytes, lent to one response at a time and then kept for
/// the next. The server keeps the libmicrohttpd response it built over the bytes with them
/// (`prepared`), so a reused copy also reuses its response and the headers added to it.
///
/// Unchecked `Sendable`: a copy has one holder at a time, either its template's idle list or
/// the one request it is lent to, and the mutex around that list orders the hand-overs.
final class SplicedCopy: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let count: Int
    /// The template while the copy is lent, so that the template lives until it comes back.
    private var lender: SplicedBytes?
    /// What the server built over these bytes; it goes when the copy does.
    var prepared: PreparedResponse?

    /// A copy of `base`; nil when memory ran out.
    convenience init?(_ base: UnsafeRawBufferPointer) { self.init(base, gap: 0, at: 0) }

    /// A copy of `base` with `gap` bytes left at `slot` for an insert, the bytes after it moved
    /// by as many; nil when memory ran out.
    init?(_ base: UnsafeRawBufferPointer, gap: Int, at slot: Int) {
        let count = base.count + gap
        guard let bytes = malloc(max(count, 1)) else { return nil }
        if let address = base.baseAddress {
            bytes.copyMemory(from: address, byteCount: slot)
            (bytes + slot + gap).copyMemory(from: address + slot, byteCount: base.count - slot)
        }
        self.bytes = bytes
        self.count = count
    }

    deinit {
        prepared = nil  // its response points into the bytes
        free(bytes)
    }

    func lend(from spliced: SplicedBytes) { lender = spliced }

    /// Back to the template it was lent from, for the next response.
    func giveBack() {
        guard let spliced = lender.take() else { return }
        spliced.keep(self)
    }
}

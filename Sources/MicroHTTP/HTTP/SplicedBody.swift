/// A template's bytes with this response's value in every hole: a cached page with this
/// visitor's token. The server sends it from a reused copy of the template with only the holes
/// rewritten; a filling of another length than the holes is written out whole instead.
public struct SplicedBody: Sendable {
    public let spliced: SplicedBytes
    public let filling: SplicedFilling
    /// Bytes for the template's slot (a visitor's own rows), with their gzip pieces once made;
    /// nil when there are none or the template has no slot.
    public let inserted: SlotInsert?

    public init(spliced: SplicedBytes, filling: SplicedFilling, inserted: SlotInsert?) {
        self.spliced = spliced
        self.filling = filling
        self.inserted = spliced.slot == nil || inserted?.bytes.isEmpty != false ? nil : inserted
    }

    public init(spliced: SplicedBytes, filling: SplicedFilling, insert: [UInt8] = []) {
        self.init(spliced: spliced, filling: filling, inserted: insert.isEmpty ? nil : SlotInsert(insert))
    }

    /// The bytes for the slot; empty when there are none.
    public var insert: [UInt8] { inserted?.bytes ?? [] }

    /// A body over a template of its own (no copies to reuse): for one-off bodies and tests.
    public init(base: [UInt8], holes: [Range<Int>], slot: Int? = nil, filling: SplicedFilling, insert: [UInt8] = []) {
        self.init(spliced: SplicedBytes(base: base, holes: holes, slot: slot), filling: filling, insert: insert)
    }

    /// The length of the body.
    public var count: Int {
        spliced.base.count - spliced.holes.reduce(0) { $0 + $1.count } + spliced.holes.count * filling.count
            + (inserted?.count ?? 0)
    }

    /// Writes the body into `buffer`, which holds exactly `count` bytes: the base between the
    /// holes, the filling in each.
    func write(into buffer: UnsafeMutableRawBufferPointer) {
        var at = 0
        func append(_ bytes: UnsafeRawBufferPointer) {
            UnsafeMutableRawBufferPointer(rebasing: buffer[at..<at + bytes.count]).copyMemory(from: bytes)
            at += bytes.count
        }
        var slot = insert.isEmpty ? nil : spliced.slot
        spliced.base.withUnsafeBytes { base in
            filling.withUnsafeBytes { filling in
                insert.withUnsafeBytes { insert in
                    var start = 0
                    // The slot before a hole that starts where it is: the same order as the page drawn.
                    func copyBase(upTo end: Int) {
                        if let at = slot, start <= at, at <= end {
                            append(UnsafeRawBufferPointer(rebasing: base[start..<at]))
                            append(insert)
                            start = at
                            slot = nil
                        }
                        append(UnsafeRawBufferPointer(rebasing: base[start..<end]))
                    }
                    for hole in spliced.holes {
                        copyBase(upTo: hole.lowerBound)
                        append(filling)
                        start = hole.upperBound
                    }
                    copyBase(upTo: base.count)
                }
            }
        }
    }

    /// The body as one array (for tests and for anything that wants the bytes).
    public var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            write(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = buffer.count
        }
    }
}

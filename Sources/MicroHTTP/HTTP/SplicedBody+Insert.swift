extension SplicedBody {
    /// A copy lent with the body's insert in `coding`, from its template's form for it: the page
    /// as it is (identity); its gzip form cut at the slot, with the insert's raw DEFLATE run (made
    /// the first time, then kept with the insert) and the trailer worked out for this body; its
    /// brotli form for an insert of this length, which carries the insert as it is in an
    /// uncompressed meta-block. Nil without an insert, without such a form (yet), when the
    /// filling does not fit, or memory ran out.
    func leaseInserting(_ coding: ContentCoding) -> SplicedCopy? {
        guard let inserted else { return nil }
        switch coding {
        case .identity:
            return inserted.bytes.withUnsafeBytes { spliced.lease(filling: filling, inserting: $0) }
        case .gzip:
            guard let form = spliced.gzipForInsert, let sums = form.slotChecksum else { return nil }
            let pieces = inserted.gzip
            guard let copy = pieces.run.withUnsafeBytes({ form.lease(filling: filling, inserting: $0) }) else { return nil }
            writeTrailer(sums, crc: pieces.crc, into: copy.bytes + copy.count)
            return copy
        case .brotli:
            guard let form = spliced.brotliForInsert(count: inserted.count), form.slotCapacity == inserted.count
            else { return nil }
            return inserted.bytes.withUnsafeBytes { form.lease(filling: filling, inserting: $0) }
        }
    }

    /// The gzip member's CRC and length of this body, in the eight bytes before `end`.
    private func writeTrailer(_ sums: SlotChecksum, crc insertedCRC: UInt32, into end: UnsafeMutableRawPointer) {
        let insertedCount = inserted?.count ?? 0
        let crc = filling.withUnsafeBytes { sums.value(token: $0, insertedCRC: insertedCRC, insertedCount: insertedCount) }
        (end - 8).storeBytes(of: crc.littleEndian, as: UInt32.self)
        (end - 4).storeBytes(of: UInt32(truncatingIfNeeded: sums.pageLength + insertedCount).littleEndian, as: UInt32.self)
    }

    /// The body with its insert from `form`, a gzip form of its template cut at the slot, as an
    /// array: for checks and tests. No insert is an empty one: no run, the CRC of no bytes (0).
    public func gzipBytes(form: SplicedBytes? = nil) -> [UInt8]? {
        guard let form = form ?? spliced.gzipForInsert, let sums = form.slotChecksum else { return nil }
        let pieces = inserted?.gzip
        guard var bytes = (pieces?.run ?? []).withUnsafeBytes({ form.filled(with: filling, inserting: $0) })
        else { return nil }
        bytes.withUnsafeMutableBytes { writeTrailer(sums, crc: pieces?.crc ?? 0, into: $0.baseAddress! + $0.count) }
        return bytes
    }

    /// The body with its insert from `form`, a brotli form of its template for an insert of this
    /// length, as an array: for checks and tests.
    public func brotliBytes(form: SplicedBytes? = nil) -> [UInt8]? {
        guard let inserted, let form = form ?? spliced.brotliForInsert(count: inserted.count),
              form.slotCapacity == inserted.count else { return nil }
        return inserted.bytes.withUnsafeBytes { form.filled(with: filling, inserting: $0) }
    }
}

import Glibc

extension SplicedBody {
    /// The body with bytes inserted, from its template's gzip form: the compressed page up to
    /// the slot, the insert's raw DEFLATE run (made at a fast level the first time, then kept
    /// with the insert), the rest of the compressed page, the tokens in their stored blocks, and
    /// the trailer worked out for this body. Nil when the template has no gzip form with a slot
    /// yet, the filling does not fit, or memory ran out. The buffer is `malloc`ed: the response frees it.
    func gzipInserting() -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        spliced.gzipForInsert.flatMap(gzipInserting)
    }

    /// The body with its insert from `form`, a gzip form of its template.
    func gzipInserting(_ form: SplicedBytes) -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        guard let sums = form.slotChecksum else { return nil }
        // No insert is an empty one: no run, the CRC of no bytes (0).
        let pieces = inserted?.gzip
        let insertedCount = inserted?.count ?? 0
        guard let (buffer, count) = (pieces?.run ?? []).withUnsafeBytes({ splice(into: form, run: $0) }) else { return nil }
        let crc = filling.withUnsafeBytes { sums.value(token: $0, insertedCRC: pieces?.crc ?? 0, insertedCount: insertedCount) }
        (buffer + count - 8).storeBytes(of: crc.littleEndian, toByteOffset: 0, as: UInt32.self)
        let size = UInt32(truncatingIfNeeded: sums.pageLength + insertedCount)
        (buffer + count - 4).storeBytes(of: size.littleEndian, as: UInt32.self)
        return (buffer, count)
    }

    /// The body with its insert from its template's brotli form for an insert of this length
    /// (`SplicedBytes.brotliForInsert`): the insert goes as it is into the form's uncompressed
    /// meta-block. Nil when there is no such form (yet), or memory ran out.
    func brotliInserting() -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        guard let inserted, let form = spliced.brotliForInsert(count: inserted.count) else { return nil }
        return brotliInserting(form)
    }

    func brotliInserting(_ form: SplicedBytes) -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        guard let inserted, form.slotCapacity == inserted.count else { return nil }
        return inserted.bytes.withUnsafeBytes { splice(into: form, run: $0) }
    }

    /// `form`'s bytes with `run` at its slot and the filling in its holes (those after the slot
    /// moved by the run's length), in a `malloc`ed buffer.
    private func splice(into form: SplicedBytes, run: UnsafeRawBufferPointer) -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        guard let slot = form.slot, form.holes.allSatisfy({ $0.count == filling.count }) else { return nil }
        let count = form.base.count + run.count
        guard let buffer = malloc(count) else { return nil }
        form.base.withUnsafeBytes { base in
            buffer.copyMemory(from: base.baseAddress!, byteCount: slot)
            if let from = run.baseAddress { (buffer + slot).copyMemory(from: from, byteCount: run.count) }
            (buffer + slot + run.count).copyMemory(from: base.baseAddress! + slot, byteCount: base.count - slot)
        }
        filling.withUnsafeBytes { token in
            guard let from = token.baseAddress else { return }
            for hole in form.holes {
                let at = hole.lowerBound + (hole.lowerBound >= slot ? run.count : 0)
                (buffer + at).copyMemory(from: from, byteCount: token.count)
            }
        }
        return (buffer, count)
    }

    /// `gzipInserting` as an array, for checks and tests.
    public func gzipBytes(form: SplicedBytes? = nil) -> [UInt8]? {
        guard let (bytes, count) = form.map(gzipInserting) ?? gzipInserting() else { return nil }
        defer { free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// `brotliInserting` as an array, for checks and tests.
    public func brotliBytes(form: SplicedBytes? = nil) -> [UInt8]? {
        guard let (bytes, count) = form.map(brotliInserting) ?? brotliInserting() else { return nil }
        defer { free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

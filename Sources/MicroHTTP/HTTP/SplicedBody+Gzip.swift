import Glibc

extension SplicedBody {
    /// The body with bytes inserted, from its template's gzip form: the compressed page up to
    /// the slot, the insert compressed now at a fast level, the rest of the compressed page, the
    /// tokens in their stored blocks, and the trailer worked out for this body. Nil when the
    /// template has no gzip form with a slot yet, the filling does not fit, or memory ran out.
    /// The buffer is `malloc`ed: the response frees it.
    func gzipInserting() -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        template.gzipForInsert.flatMap(gzipInserting)
    }

    /// The body with its insert from `form`, a gzip form of its template.
    func gzipInserting(_ form: SplicedBytes) -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        guard let slot = form.slot, let sums = form.slotChecksum,
              form.holes.allSatisfy({ $0.count == filling.count }) else { return nil }
        let compressed = insert.withUnsafeBytes(GzipSplicer.insertion)
        let count = form.base.count + compressed.count
        guard let buffer = malloc(count) else { return nil }
        form.base.withUnsafeBytes { base in
            buffer.copyMemory(from: base.baseAddress!, byteCount: slot)
            compressed.withUnsafeBytes { if let from = $0.baseAddress { (buffer + slot).copyMemory(from: from, byteCount: $0.count) } }
            (buffer + slot + compressed.count).copyMemory(from: base.baseAddress! + slot, byteCount: base.count - slot)
        }
        filling.withUnsafeBytes { token in
            for hole in form.holes {
                let at = hole.lowerBound + (hole.lowerBound >= slot ? compressed.count : 0)
                if let from = token.baseAddress { (buffer + at).copyMemory(from: from, byteCount: token.count) }
            }
            let crc = insert.withUnsafeBytes { sums.value(token: token, inserted: $0) }
            (buffer + count - 8).storeBytes(of: crc.littleEndian, toByteOffset: 0, as: UInt32.self)
        }
        let size = UInt32(truncatingIfNeeded: sums.pageLength + insert.count)
        (buffer + count - 4).storeBytes(of: size.littleEndian, as: UInt32.self)
        return (buffer, count)
    }

    /// `gzipInserting` as an array, for checks and tests.
    public func gzipBytes(form: SplicedBytes? = nil) -> [UInt8]? {
        guard let (bytes, count) = form.map(gzipInserting) ?? gzipInserting() else { return nil }
        defer { free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a segment forward, plain or gzip-compressed, a line (or a chunk of whole lines) at a time,
/// with offsets in the uncompressed text. Reads stop at `end` (the bytes known written), so a line
/// being written meanwhile is never seen half.
final class SegmentLineReader {
    private let fd: Int32
    private let gzip: GzipReader?
    private var buffer: [UInt8] = []
    private var start = 0
    /// The uncompressed offset of `buffer[0]`.
    private var bufferOffset: Int64
    /// The uncompressed offset of the next byte to read from the source.
    private var readOffset: Int64
    private let end: Int64
    private var exhausted = false
    private var skippingFrom: Int64?

    /// Opens the segment; nil if it is gone. `from` must be a line start (or 0).
    init?(path: String, compressed: Bool, from: Int64 = 0, end: Int64 = .max, index: GzipIndex? = nil) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ScanError(code: errno)
        }
        self.end = end
        if compressed {
            // With an index, start at the member holding `from` rather than at the beginning.
            var start: Int64 = 0
            if let index, from > 0 {
                let member = index.member(containing: from)
                if lseek(fd, off_t(index.members[member].compressed), SEEK_SET) >= 0 { start = index.members[member].uncompressed }
            }
            guard let reader = GzipReader(fd: fd) else { throw ScanError(code: EIO) }
            gzip = reader
            self.fd = -1
            bufferOffset = start
            readOffset = start
            if from > start { try skip(to: from) }
        } else {
            gzip = nil
            self.fd = fd
            bufferOffset = from
            readOffset = from
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    private func skip(to offset: Int64) throws {
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        while readOffset < offset {
            let want = Int(min(Int64(scratch.count), offset - readOffset))
            let got = try scratch.withUnsafeMutableBytes { try gzip!.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
            if got == 0 { break }
            readOffset += Int64(got)
        }
        bufferOffset = readOffset
    }

    /// Reads more into the buffer; false at the end.
    private func fill() throws -> Bool {
        if exhausted || readOffset >= end { return false }
        if start > 0 {
            buffer.removeFirst(start)
            bufferOffset += Int64(start)
            start = 0
        }
        if buffer.count > maxLineBytes {
            if skippingFrom == nil { skippingFrom = bufferOffset }
            bufferOffset += Int64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
        }
        let count = Int(min(Int64(scanChunkBytes), end - readOffset))
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        let got = try buffer.withUnsafeMutableBytes { bytes throws -> Int in
            let target = UnsafeMutableRawBufferPointer(rebasing: bytes[old...])
            if let gzip { return try gzip.read(into: target) }
            return try readFully(fd, target, at: readOffset)
        }
        buffer.removeLast(count - got)
        readOffset += Int64(got)
        if got == 0 { exhausted = true }
        return got > 0
    }

    /// The next line (no newline) and its offset; a last line without a newline is torn and skipped.
    func next() throws -> ScannedLine? {
        while true {
            if let line = nextLine(in: buffer, start: &start, bufferOffset: bufferOffset, skippingFrom: &skippingFrom) {
                return line
            }
            guard try fill() else { return nil }
        }
    }

    /// Whole lines (newlines included), about `maxBytes` at most; nil at the end.
    func nextChunk(maxBytes: Int) throws -> ArraySlice<UInt8>? {
        while true {
            if buffer.count - start >= maxBytes || exhausted || readOffset >= end {
                let last = buffer.withUnsafeBufferPointer { all -> Int? in
                    var index = all.count - 1
                    while index >= start && all[index] != 10 { index -= 1 }
                    return index >= start ? index : nil
                }
                if let last {
                    let chunk = buffer[start...last]
                    start = last + 1
                    return chunk
                }
                if exhausted || readOffset >= end { return nil }
            }
            guard try fill() else {
                if buffer.count > start, buffer[start...].contains(10) { continue }
                return nil
            }
        }
    }

    /// The uncompressed offset just past the last line returned.
    var position: Int64 { bufferOffset + Int64(start) }
}

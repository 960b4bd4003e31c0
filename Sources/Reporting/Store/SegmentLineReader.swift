#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a segment forward, plain or gzip-compressed, a line (or a chunk of whole lines) at a time,
/// with offsets in the uncompressed text. Reads stop at `end` (the bytes known written), so a line
/// being written meanwhile is never seen half.
final class SegmentLineReader {
    private let path: String
    private let fd: Int32
    private let gzip: GzipReader?
    /// Uncompressed offsets.
    private var lines: LineBuffer
    /// The uncompressed offset of the next byte to read from the source.
    private var readOffset: Int64
    private let end: Int64
    private var exhausted = false

    /// Opens the segment; nil if it is gone. `from` must be a line start (or 0).
    init?(path: String, compressed: Bool, from: Int64 = 0, end: Int64 = .max, index: GzipIndex? = nil) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ScanError(code: errno).at(path)
        }
        self.path = path
        self.end = end
        if compressed {
            // With an index, start at the member holding `from` rather than at the beginning.
            var start: Int64 = 0
            if let index, from > 0 {
                let member = index.member(containing: from)
                if lseek(fd, off_t(index.members[member].compressed), SEEK_SET) >= 0 { start = index.members[member].uncompressed }
            }
            guard let reader = GzipReader(fd: fd) else { throw ScanError(code: ENOMEM).at(path) }
            gzip = reader
            self.fd = -1
            lines = LineBuffer(offset: start)
            readOffset = start
            if from > start { try naming(path) { try skip(to: from) } }
        } else {
            gzip = nil
            self.fd = fd
            lines = LineBuffer(offset: from)
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
        lines.offset = readOffset
    }

    /// Reads more into the buffer; false at the end.
    private func fill() throws -> Bool {
        if exhausted || readOffset >= end { return false }
        let count = Int(min(Int64(scanChunkBytes), end - readOffset))
        let (fd, gzip, at) = (fd, gzip, readOffset)
        let got = try naming(path) {
            try lines.refill(count: count) { target in
                if let gzip { return try gzip.read(into: target) }
                return try readFully(fd, target, at: at)
            }
        }
        readOffset += Int64(got)
        if got == 0 { exhausted = true }
        return got > 0
    }

    /// The next line (no newline) and its offset; a last line without a newline is torn and skipped.
    func next() throws -> ScannedLine? {
        while true {
            if let line = lines.next() { return line }
            guard try fill() else { return nil }
        }
    }

    /// Whole lines (newlines included), about `maxBytes` at most; nil at the end.
    func nextChunk(maxBytes: Int) throws -> ArraySlice<UInt8>? {
        while true {
            if lines.bytes.count - lines.start >= maxBytes || exhausted || readOffset >= end {
                let start = lines.start
                let last = lines.bytes.withUnsafeBufferPointer { all -> Int? in
                    var index = all.count - 1
                    while index >= start && all[index] != 10 { index -= 1 }
                    return index >= start ? index : nil
                }
                if let last {
                    let chunk = lines.bytes[start...last]
                    lines.start = last + 1
                    return chunk
                }
                if exhausted || readOffset >= end { return nil }
            }
            guard try fill() else {
                if lines.bytes.count > lines.start, lines.bytes[lines.start...].contains(10) { continue }
                return nil
            }
        }
    }

    /// The uncompressed offset just past the last line returned.
    var position: Int64 { lines.position }

    /// Bytes held after the last line returned: at the end, those after the last newline.
    var unterminatedBytes: Int { lines.bytes.count - lines.start }
}

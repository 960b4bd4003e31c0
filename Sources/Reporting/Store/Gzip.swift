import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// gzip for closed segments, readable by `zcat`, DuckDB and ClickHouse.
enum Gzip {
    /// zlib's fastest level: JSON Lines still shrink several times, and compressing keeps up with
    /// the writer on one core instead of falling behind it.
    static let level: Int32 = 1

    /// Uncompressed bytes per gzip member. Members start at line starts; the index of where each
    /// begins lets readers start in the middle of a segment (a gzip of several members is still
    /// one gzip to zcat, DuckDB and ClickHouse).
    static let memberBytes = 1 << 20

    /// Compresses the file at `source` into `target` (fsynced) as line-aligned members; returns the
    /// index, or nil (target removed) on error.
    static func compress(_ source: String, to target: String, memberBytes: Int = Gzip.memberBytes) -> GzipIndex? {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return nil }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { return nil }
        var ok = false
        defer {
            close(output)
            if !ok { unlink(target) }
        }
        var stream = z_stream()
        guard dh_deflate_init2(&stream, level, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var index = GzipIndex(members: [])
        var pending: [UInt8] = []
        var outBuffer = [UInt8](repeating: 0, count: 256 * 1024)
        var uncompressed: Int64 = 0
        var compressed: Int64 = 0
        var atEnd = false
        var chunk = [UInt8](repeating: 0, count: memberBytes)
        while !atEnd || !pending.isEmpty {
            // Fill up to a member's worth, then cut after its last newline.
            while !atEnd && pending.count < memberBytes {
                let got = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, memberBytes - pending.count) }
                if got < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if got == 0 { atEnd = true } else { pending.append(contentsOf: chunk[..<got]) }
            }
            var cut = pending.count
            if !atEnd, let newline = pending.lastIndex(of: 10) { cut = newline + 1 }
            index.members.append((uncompressed, compressed))
            let wrote = pending.withUnsafeMutableBufferPointer { inBytes in
                outBuffer.withUnsafeMutableBufferPointer { outBytes -> Bool in
                    stream.next_in = inBytes.baseAddress
                    stream.avail_in = uInt(cut)
                    var status = Z_OK
                    repeat {
                        stream.next_out = outBytes.baseAddress
                        stream.avail_out = uInt(outBytes.count)
                        status = deflate(&stream, Z_FINISH)
                        let produced = outBytes.count - Int(stream.avail_out)
                        if produced > 0, writeAll(output, UnsafeRawBufferPointer(start: outBytes.baseAddress, count: produced)).error != 0 {
                            return false
                        }
                        compressed += Int64(produced)
                    } while status == Z_OK
                    return status == Z_STREAM_END
                }
            }
            guard wrote, deflateReset(&stream) == Z_OK else { return nil }
            uncompressed += Int64(cut)
            pending.removeFirst(cut)
        }
        index.members.append((uncompressed, compressed))
        guard fsync(output) == 0 else { return nil }
        ok = true
        return index
    }
}

/// Where each gzip member of a compressed segment starts, uncompressed and compressed; the last
/// entry is the end of both. Kept beside the segment (`events-….gzi`).
struct GzipIndex: Sendable {
    var members: [(uncompressed: Int64, compressed: Int64)]

    static let magic = Array("DHGZI1\n".utf8)

    func encode() -> [UInt8] {
        var out = Self.magic
        RollupFile.put32(&out, UInt32(members.count))
        for member in members {
            RollupFile.put64(&out, UInt64(member.uncompressed))
            RollupFile.put64(&out, UInt64(member.compressed))
        }
        RollupFile.put32(&out, RollupFile.checksum(out[...]))
        return out
    }

    /// Reads an index back; nil if missing, torn or inconsistent.
    static func load(_ path: String) -> GzipIndex? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let got = (try? bytes.withUnsafeMutableBytes { try readFully(fd, $0, at: 0) }) ?? 0
        guard got > magic.count + 8, got < bytes.count, bytes.starts(with: magic) else { return nil }
        var tail = RollupFile.Reader(bytes: bytes[..<got])
        tail.index = got - 4
        guard let stored = tail.u32(), stored == RollupFile.checksum(bytes[..<(got - 4)]) else { return nil }
        var reader = RollupFile.Reader(bytes: bytes[..<(got - 4)])
        reader.index = magic.count
        guard let count = reader.u32(), count >= 1 else { return nil }
        var index = GzipIndex(members: [])
        for _ in 0..<count {
            guard let u = reader.u64(), let c = reader.u64() else { return nil }
            index.members.append((Int64(u), Int64(c)))
        }
        return index
    }

    /// The member holding uncompressed `offset` (the last member for the end).
    func member(containing offset: Int64) -> Int {
        var low = 0
        var high = members.count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if members[mid].uncompressed <= offset { low = mid } else { high = mid - 1 }
        }
        return max(0, low)
    }

    /// A reader positioned at member `number` of the gzip at `path`.
    func reader(at number: Int, of path: String) throws -> GzipReader {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ScanError(code: errno) }
        guard lseek(fd, off_t(members[number].compressed), SEEK_SET) >= 0 else {
            close(fd)
            throw ScanError(code: EIO)
        }
        guard let reader = GzipReader(fd: fd) else { throw ScanError(code: EIO) }
        return reader
    }

    /// The first `count` bytes of member `number` (fewer if it is shorter).
    func prefix(_ count: Int, ofMember number: Int, of path: String) throws -> [UInt8] {
        let reader = try reader(at: number, of: path)
        let length = min(count, Int(members[number + 1].uncompressed - members[number].uncompressed))
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = try bytes.withUnsafeMutableBytes { try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[done...])) }
            if got == 0 { break }
            done += got
        }
        return Array(bytes[..<done])
    }

    /// Decompresses member `number` of the gzip at `path`.
    func read(_ number: Int, of path: String) throws -> [UInt8] {
        let reader = try reader(at: number, of: path)
        let length = Int(members[number + 1].uncompressed - members[number].uncompressed)
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = try bytes.withUnsafeMutableBytes { try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[done...])) }
            if got == 0 { throw ScanError(code: EIO) }
            done += got
        }
        return bytes
    }
}

/// Streams a gzip file's decompressed bytes (several concatenated members are read as one).
final class GzipReader {
    private let fd: Int32
    private var stream = z_stream()
    private var input = [UInt8](repeating: 0, count: 128 * 1024)
    private var finished = false
    private var initialized = false

    /// Takes ownership of `fd`.
    init?(fd: Int32) {
        self.fd = fd
        guard dh_inflate_init2(&stream, 15 + 32) == Z_OK else {
            close(fd)
            return nil
        }
        initialized = true
    }

    deinit {
        if initialized { inflateEnd(&stream) }
        close(fd)
    }

    /// Fills `buffer` with the next decompressed bytes; 0 at the end. Throws on a read or data error
    /// (a truncated file reads up to where it breaks, then throws).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = uInt(buffer.count)
        while stream.avail_out > 0 {
            if stream.avail_in == 0 {
                let got = input.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ScanError(code: errno)
                }
                if got == 0 {
                    // Input ended: fine between members, an error inside one.
                    if stream.total_in > 0 && !betweenMembers { throw ScanError(code: EIO) }
                    finished = true
                    break
                }
                input.withUnsafeMutableBufferPointer { stream.next_in = $0.baseAddress }
                stream.avail_in = uInt(got)
            }
            betweenMembers = false
            let status = inflate(&stream, Z_NO_FLUSH)
            if status == Z_STREAM_END {
                betweenMembers = true
                let pending = stream.avail_in
                let next = stream.next_in
                inflateReset(&stream)
                stream.next_in = next
                stream.avail_in = pending
                continue
            }
            guard status == Z_OK || status == Z_BUF_ERROR else { throw ScanError(code: EIO) }
        }
        return buffer.count - Int(stream.avail_out)
    }

    private var betweenMembers = false
}

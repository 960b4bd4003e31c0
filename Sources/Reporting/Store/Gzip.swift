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

    /// Compresses the file at `source` into `target` and fsyncs it; false (target removed) on error.
    static func compress(_ source: String, to target: String) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { return false }
        var ok = false
        defer {
            close(output)
            if !ok { unlink(target) }
        }
        var stream = z_stream()
        guard dh_deflate_init2(&stream, level, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK else { return false }
        defer { deflateEnd(&stream) }
        let size = 256 * 1024
        var inBuffer = [UInt8](repeating: 0, count: size)
        var outBuffer = [UInt8](repeating: 0, count: size)
        while true {
            let got = inBuffer.withUnsafeMutableBytes { read(input, $0.baseAddress, size) }
            if got < 0 {
                if errno == EINTR { continue }
                return false
            }
            let flush = got == 0 ? Z_FINISH : Z_NO_FLUSH
            var status = Z_OK
            let wrote = inBuffer.withUnsafeMutableBufferPointer { inBytes in
                outBuffer.withUnsafeMutableBufferPointer { outBytes -> Bool in
                    stream.next_in = inBytes.baseAddress
                    stream.avail_in = uInt(got)
                    repeat {
                        stream.next_out = outBytes.baseAddress
                        stream.avail_out = uInt(size)
                        status = deflate(&stream, flush)
                        let produced = size - Int(stream.avail_out)
                        if produced > 0, writeAll(output, UnsafeRawBufferPointer(start: outBytes.baseAddress, count: produced)).error != 0 { return false }
                    } while stream.avail_out == 0
                    return true
                }
            }
            guard wrote, status != Z_STREAM_ERROR else { return false }
            if got == 0 {
                guard status == Z_STREAM_END else { return false }
                break
            }
        }
        guard fsync(output) == 0 else { return false }
        ok = true
        return true
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

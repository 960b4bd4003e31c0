import Basics
import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
                let got = input.withUnsafeMutableBytes { FileIO.readSome(fd, into: $0) }
                if got < 0 { throw ScanError(code: errno) }
                if got == 0 {
                    // Input ended: fine between members, an error inside one.
                    if stream.total_in > 0 && !betweenMembers {
                        throw ScanError.damaged("truncated: the file ends inside a gzip member")
                    }
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
            guard status == Z_OK || status == Z_BUF_ERROR else {
                let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw status == Z_MEM_ERROR ? ScanError(code: ENOMEM) : ScanError.damaged("corrupt gzip data (\(message))")
            }
        }
        return buffer.count - Int(stream.avail_out)
    }

    private var betweenMembers = false
}

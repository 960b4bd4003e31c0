import CZlib

/// zlib's deflate for one body: a whole gzip member, or raw DEFLATE pieces for a splicer.
enum Gzip {
    /// `bytes` as one gzip member at `level` (1 fastest … 9 smallest).
    static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32) -> [UInt8] {
        var output: [UInt8] = []
        let stream = RawDeflate(level: level, windowBits: 15 + 16)
        stream.deflate(bytes, flush: Z_FINISH, into: &output)
        return output
    }

    /// The gzip member of `bytes` written into `output` (at most `capacity` bytes); its length, or
    /// nil when it would not be smaller than `capacity`. For bodies compressed on the fly.
    static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32,
                         into output: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        var stream = z_stream()
        guard dh_deflate_init2(&stream, level, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(bytes.count)
        stream.next_out = output.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(capacity)
        guard CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END else { return nil }
        return capacity - Int(stream.avail_out)
    }

    /// The gzip header of a member with no name, time or flags, from a Unix system.
    static let header: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]

    /// The CRC-32 of `bytes` continuing from `crc`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(CZlib.crc32(uLong(crc), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }

    /// Decompresses a gzip member (or raw DEFLATE with `windowBits: -15`); nil when it is not valid
    /// or has bytes after its end. For checks and tests.
    static func decompress(_ bytes: [UInt8], windowBits: Int32 = 15 + 16) -> [UInt8]? {
        var stream = z_stream()
        guard dh_inflate_init2(&stream, windowBits) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return bytes.withUnsafeBytes { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            while true {
                let status = chunk.withUnsafeMutableBytes { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[..<(chunk.count - Int(stream.avail_out))])
                if status == Z_STREAM_END { return stream.avail_in == 0 ? output : nil }
                guard status == Z_OK else { return nil }
            }
        }
    }
}

/// One deflate stream, fed piece by piece; the splicer needs a fresh one (with a preset
/// dictionary) for every fixed part of a page.
final class RawDeflate {
    private var stream = z_stream()
    private let ready: Bool

    /// `windowBits` -15 for raw DEFLATE, 31 for a gzip member.
    init(level: Int32, windowBits: Int32 = -15, memLevel: Int32 = 8, strategy: Int32 = Z_DEFAULT_STRATEGY) {
        ready = dh_deflate_init2(&stream, level, windowBits, memLevel, strategy) == Z_OK
        precondition(ready, "zlib could not start a deflate stream")
    }

    deinit { deflateEnd(&stream) }

    /// The history later bytes may refer back to (up to the last 32 KiB are used).
    func setDictionary(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let status = deflateSetDictionary(&stream, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
        precondition(status == Z_OK, "zlib refused a dictionary")
    }

    /// Compresses `bytes` and then flushes with `flush`, appending everything to `output`.
    func deflate(_ bytes: UnsafeRawBufferPointer, flush: Int32, into output: inout [UInt8]) {
        stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(bytes.count)
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let status = chunk.withUnsafeMutableBytes { buffer -> Int32 in
                stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(buffer.count)
                return CZlib.deflate(&stream, flush)
            }
            let produced = chunk.count - Int(stream.avail_out)
            output.append(contentsOf: chunk[..<produced])
            precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate failed")
            // Done once the flush left room to spare, or the stream ended.
            if status == Z_STREAM_END || (stream.avail_in == 0 && stream.avail_out > 0 && flush != Z_FINISH) { return }
        }
    }
}

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

import CZlib

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

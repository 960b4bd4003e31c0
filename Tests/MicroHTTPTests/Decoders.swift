import CBrotli
import CZlib

/// The reference decoders, called directly: zlib's `inflate` and brotli's `BrotliDecoderDecompress`.
enum Decoders {
    /// A whole gzip member, with nothing after it; nil when zlib refuses it (a bad CRC included).
    static func gunzip(_ bytes: [UInt8]) -> [UInt8]? { inflated(bytes, windowBits: 15 + 16) }

    /// A whole DEFLATE stream in zlib's framing for `windowBits` (-15: raw; 15 + 16: gzip); nil
    /// when zlib refuses it or bytes are left after its end.
    static func inflated(_ bytes: [UInt8], windowBits: Int32) -> [UInt8]? {
        var stream = z_stream()
        guard dh_inflate_init2(&stream, windowBits) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(bytes.count * 40, 1 << 20))
        var input = bytes
        let status = input.withUnsafeMutableBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(out.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, stream.avail_in == 0 else { return nil }
        return Array(output[..<Int(stream.total_out)])
    }

    /// A whole brotli stream; nil when the decoder refuses it.
    static func unbrotli(_ bytes: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: max(bytes.count * 60, 1 << 20))
        var size = output.count
        let result = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                BrotliDecoderDecompress(input.count, input.baseAddress?.assumingMemoryBound(to: UInt8.self), &size,
                                        out.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard result == BROTLI_DECODER_RESULT_SUCCESS else { return nil }
        return Array(output[..<size])
    }

    /// The body as the client reads it, undoing `Content-Encoding`.
    static func decode(_ body: [UInt8], contentEncoding: String?) -> [UInt8]? {
        switch contentEncoding {
        case nil: body
        case "gzip": gunzip(body)
        case "br": unbrotli(body)
        default: nil
        }
    }
}

import CBrotli

/// The brotli encoder, fed piece by piece: whole bodies, or a page's fixed parts for a splicer.
final class BrotliEncoder {
    private let state: OpaquePointer

    /// `quality` 0 fastest … 11 smallest; `sizeHint` the expected input length.
    init(quality: UInt32, sizeHint: Int = 0) {
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else { fatalError("brotli could not start") }
        self.state = state
        BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, quality)
        BrotliEncoderSetParameter(state, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT.rawValue)
        if sizeHint > 0 {
            BrotliEncoderSetParameter(state, BROTLI_PARAM_SIZE_HINT, UInt32(min(sizeHint, 1 << 30)))
            // A window just wider than the input finds the same matches as the default 4 MiB one,
            // without its tables: quality 11 on a page fed piece by piece took MiBs more heap.
            var bits: UInt32 = 16
            while bits < 22 && (1 << bits) - 16 < sizeHint { bits += 1 }
            BrotliEncoderSetParameter(state, BROTLI_PARAM_LGWIN, bits)
        }
    }

    deinit { BrotliEncoderDestroyInstance(state) }

    /// One literal code for every context: the splicer's tokens change the bytes a context is read from.
    func disableLiteralContextModelling() {
        BrotliEncoderSetParameter(state, BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING, 1)
    }

    /// Compresses `bytes` with `operation` (process, flush or finish), appending the output.
    /// After a flush the output ends on a byte boundary, between meta-blocks.
    func compress(_ bytes: UnsafeRawBufferPointer, _ operation: BrotliEncoderOperation, into output: inout [UInt8]) {
        var availableIn = bytes.count
        var nextIn = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var availableOut = 0
        repeat {
            let ok = BrotliEncoderCompressStream(state, operation, &availableIn, &nextIn, &availableOut, nil, nil)
            precondition(ok == BROTLI_TRUE, "brotli failed")
            var size = 0
            if let taken = BrotliEncoderTakeOutput(state, &size), size > 0 {
                output.append(contentsOf: UnsafeBufferPointer(start: taken, count: size))
            }
        } while availableIn > 0 || BrotliEncoderHasMoreOutput(state) == BROTLI_TRUE
            || (operation == BROTLI_OPERATION_FINISH && BrotliEncoderIsFinished(state) != BROTLI_TRUE)
    }

    /// `bytes` as one brotli stream.
    static func compress(_ bytes: UnsafeRawBufferPointer, quality: UInt32) -> [UInt8] {
        var output: [UInt8] = []
        BrotliEncoder(quality: quality, sizeHint: bytes.count).compress(bytes, BROTLI_OPERATION_FINISH, into: &output)
        return output
    }

    /// `bytes` compressed into `output` (at most `capacity` bytes); the length, or nil when it
    /// does not fit. For bodies compressed on the fly: one call, no allocation but the encoder's.
    static func compress(_ bytes: UnsafeRawBufferPointer, quality: Int32,
                         into output: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        var size = capacity
        let ok = BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, bytes.count,
                                       bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), &size,
                                       output.assumingMemoryBound(to: UInt8.self))
        return ok == BROTLI_TRUE && size < capacity ? size : nil
    }

    /// Decodes a whole brotli stream; nil when it is not valid or does not end. For checks and tests.
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output: [UInt8] = []
        return bytes.withUnsafeBytes { input -> [UInt8]? in
            var availableIn = input.count
            var nextIn = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
            while true {
                var availableOut = 0
                let result = BrotliDecoderDecompressStream(decoder, &availableIn, &nextIn, &availableOut, nil, nil)
                var size = 0
                if let taken = BrotliDecoderTakeOutput(decoder, &size), size > 0 {
                    output.append(contentsOf: UnsafeBufferPointer(start: taken, count: size))
                }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return availableIn == 0 ? output : nil
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                default: return nil
                }
            }
        }
    }
}

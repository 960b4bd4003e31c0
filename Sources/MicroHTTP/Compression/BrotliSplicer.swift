import CBrotli

/// Compresses a page with holes into a brotli stream a response only has to patch: each token
/// travels in an uncompressed meta-block (ISUNCOMPRESSED), written in place.
///
/// One encoder compresses the whole page so its window spans it, flushed at each hole (a flush
/// ends the meta-block on a byte boundary). It is shown a `Placeholder` stand-in of the token's
/// length, so the distances of later back-references count the token's bytes as the decoder
/// will; the stand-in's bytes never occur in the fixed parts, so no back-reference reaches into
/// it, and none repeats, so the encoder compresses it without any copy that would move its
/// distance cache away from the decoder's. Its meta-block is thrown away and replaced by the
/// uncompressed one. Literal context modelling is off: a literal's context is the two bytes
/// before it, which after a hole are the token's and differ per response.
///
/// Every hole ends a meta-block, whose successor pays for its own prefix codes: about 60 bytes
/// a hole. A page is compressed once, so it is compressed at quality 11 (some 50 ms for a 35 KB
/// page, off the server's threads), which wins that back and more.
enum BrotliSplicer {
    static func splice(_ page: UnsafeRawBufferPointer, holes: [Range<Int>], quality: UInt32 = 11) -> SplicedBytes? {
        let length = holes.first?.count ?? 0
        guard holes.allSatisfy({ $0.count == length }), (1...0x10000).contains(length) || holes.isEmpty,
              let fillings = Placeholder.fillings(for: page, holes: holes) else { return nil }
        let encoder = BrotliEncoder(quality: quality, sizeHint: page.count)
        encoder.disableLiteralContextModelling()
        var output: [UInt8] = []
        var tokenOffsets: [Int] = []
        var start = 0
        for (hole, filling) in zip(holes, fillings) {
            encoder.compress(UnsafeRawBufferPointer(rebasing: page[start..<hole.lowerBound]), BROTLI_OPERATION_FLUSH,
                             into: &output)
            var discarded: [UInt8] = []
            filling.withUnsafeBytes { encoder.compress($0, BROTLI_OPERATION_FLUSH, into: &discarded) }
            // ISLAST 0, MNIBBLES 4 (coded 0), MLEN-1 in 16 bits, ISUNCOMPRESSED 1, then zero bits to the byte.
            let header = UInt32(length - 1) << 3 | 1 << 19
            output += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16)]
            tokenOffsets.append(output.count)
            output += filling
            start = hole.upperBound
        }
        encoder.compress(UnsafeRawBufferPointer(rebasing: page[start...]), BROTLI_OPERATION_FINISH, into: &output)
        let template = SplicedBytes(base: output, holes: tokenOffsets.map { $0..<($0 + length) })
        return SpliceCheck.holds(template, page: page, holes: holes, decode: BrotliEncoder.decompress) ? template : nil
    }
}

import CBrotli

/// Compresses a page with holes into a brotli stream a response only has to patch: each token
/// travels in an uncompressed meta-block (ISUNCOMPRESSED), written in place.
///
/// One encoder compresses the whole page so its window spans it, flushed at each hole (a flush
/// ends the meta-block on a byte boundary). It is shown a `StandIn` stand-in of the token's
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
///
/// A slot (where a response inserts a visitor's rows) cannot be a run of any length: the parts
/// after it refer back across it at distances that count its bytes, and brotli's last-distances
/// ring is not reset between meta-blocks, so a part compressed on its own cannot follow.
/// Instead a form is made per length of insert (`capacity`): the slot is an uncompressed
/// meta-block of exactly that many bytes, compressed around as a stand-in of that length that
/// the encoder writes as literals only (`StandIn.slotRun`), so its distances and ring are the
/// decoder's. The app pads its inserts to one of a few lengths.
enum BrotliSplicer {
    /// The stream for `page` with `holes`, all of one length; with `slot`, the form whose slot
    /// takes inserts of `capacity` bytes (1 to 65,536), which its base leaves out.
    static func splice(_ page: UnsafeRawBufferPointer, holes: [Range<Int>], slot: Int? = nil, capacity: Int = 0,
                       quality: UInt32 = 11) -> SplicedBytes? {
        let length = holes.first?.count ?? 0
        guard holes.allSatisfy({ $0.count == length }), (1...0x10000).contains(length) || holes.isEmpty,
              slot == nil || (1...0x10000).contains(capacity),
              let fillings = StandIn.fillings(for: page, holes: holes) else { return nil }
        var standIn: [UInt8] = []
        if slot != nil {
            guard let run = StandIn.slotRun(count: capacity, for: page, holes: holes, tokens: fillings) else { return nil }
            standIn = run
        }
        // Each cut ends a part: a hole (the index of its token) or the slot (nil); the slot first at a tie.
        var cuts: [(range: Range<Int>, token: Int?)] = holes.enumerated().map { ($1, $0) }
        if let slot { cuts.insert((slot..<slot, nil), at: holes.firstIndex { $0.lowerBound >= slot } ?? holes.count) }
        let encoder = BrotliEncoder(quality: quality, sizeHint: page.count + capacity)
        encoder.disableLiteralContextModelling()
        var output: [UInt8] = []
        var tokenOffsets: [Int] = []
        var slotOffset: Int?
        var start = 0
        for cut in cuts {
            encoder.compress(UnsafeRawBufferPointer(rebasing: page[start..<cut.range.lowerBound]), BROTLI_OPERATION_FLUSH,
                             into: &output)
            let stand = cut.token.map { fillings[$0] } ?? standIn
            var discarded: [UInt8] = []
            stand.withUnsafeBytes { encoder.compress($0, BROTLI_OPERATION_FLUSH, into: &discarded) }
            // ISLAST 0, MNIBBLES 4 (coded 0), MLEN-1 in 16 bits, ISUNCOMPRESSED 1, then zero bits to the byte.
            let header = UInt32(stand.count - 1) << 3 | 1 << 19
            output += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16)]
            if let token = cut.token {
                tokenOffsets.append(output.count)
                output += fillings[token]
            } else {
                slotOffset = output.count
            }
            start = cut.range.upperBound
        }
        encoder.compress(UnsafeRawBufferPointer(rebasing: page[start...]), BROTLI_OPERATION_FINISH, into: &output)
        let spliced = SplicedBytes(base: output, holes: tokenOffsets.map { $0..<($0 + length) }, slot: slotOffset,
                                   checksum: nil, slotCapacities: slot == nil ? [] : [capacity])
        guard let slot else {
            return SpliceCheck.holds(spliced, page: page, holes: holes, decode: BrotliEncoder.decompress) ? spliced : nil
        }
        return SpliceCheck.holdsInsertingBrotli(spliced, page: page, holes: holes, slot: slot) ? spliced : nil
    }
}

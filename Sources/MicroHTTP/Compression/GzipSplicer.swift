import CZlib

/// Compresses a page with holes into a gzip member a response only has to patch: the tokens go
/// into DEFLATE stored blocks and the CRC-32 into the trailer, both in place.
///
/// Each fixed part is its own raw DEFLATE stream, primed with the page before it (the tokens
/// stood in by `StandIn` bytes no part contains) as a preset dictionary: back-references
/// reach across a token into the text before it at the right distance, yet never into a token.
/// Each part but the last ends with a sync flush, whose empty stored block (`00 00 FF FF` after
/// the block header) becomes the token's stored block by rewriting its length.
///
/// Every part ends a DEFLATE block, so it pays for its own code tables: a page is compressed
/// once, so each part is compressed at level 9 with both of zlib's useful strategies and the
/// smaller kept, which wins back most of that.
enum GzipSplicer {
    /// The member for `page` with `holes`, all of one length, or nil when the page cannot be
    /// spliced (holes of several lengths, a token longer than a stored block, a failed check).
    ///
    /// `slot`: where a response inserts bytes of any length. The part before it ends with a sync
    /// flush, so the insert (raw DEFLATE of its own, `insertion`) starts on a byte; the parts
    /// after it take no history from before it, so their back-references never reach across
    /// the inserted bytes, whose length they cannot know.
    static func splice(_ page: UnsafeRawBufferPointer, holes: [Range<Int>], slot: Int? = nil,
                       level: Int32 = 9) -> SplicedBytes? {
        let length = holes.first?.count ?? 0
        guard holes.allSatisfy({ $0.count == length }), length <= 0xFFFF, page.count <= Int(UInt32.max),
              let fillings = StandIn.fillings(for: page, holes: holes) else { return nil }
        let primed = StandIn.filled(page, holes: holes, with: fillings)
        // Each cut ends a part: a hole (the index of its token) or the slot (nil); the slot first at a tie.
        var cuts: [(range: Range<Int>, token: Int?)] = holes.enumerated().map { ($1, $0) }
        if let slot { cuts.insert((slot..<slot, nil), at: holes.firstIndex { $0.lowerBound >= slot } ?? holes.count) }
        var output = Gzip.header
        var tokenOffsets: [Int] = []
        var slotOffset: Int?
        var start = 0
        var historyFloor = 0
        primed.withUnsafeBytes { primed in
            for (index, cut) in (cuts + [(page.count..<page.count, nil)]).enumerated() {
                let isLast = index == cuts.count
                output += smallest(UnsafeRawBufferPointer(rebasing: primed[start..<cut.range.lowerBound]),
                                   after: UnsafeRawBufferPointer(
                                       rebasing: primed[max(historyFloor, start - 32 * 1024)..<start]),
                                   level: level, flush: isLast ? Z_FINISH : Z_SYNC_FLUSH)
                if isLast { break }
                start = cut.range.upperBound
                guard let token = cut.token else {
                    slotOffset = output.count
                    historyFloor = start
                    continue
                }
                // The sync flush's empty stored block: keep its header bits, give it the token's length.
                precondition(output.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]), "a sync flush ends with an empty stored block")
                output.removeLast(4)
                let length16 = UInt16(length)
                output += [UInt8(length16 & 0xFF), UInt8(length16 >> 8), UInt8(~length16 & 0xFF), UInt8(~length16 >> 8)]
                tokenOffsets.append(output.count)
                output += fillings[token]
            }
        }
        let checksum = SplicedChecksum(offset: output.count, page: page, holes: holes, tokenLength: length)
        let slotChecksum = slot.map { SlotChecksum(page: page, holes: holes, slot: $0, tokenLength: length) }
        output += [0, 0, 0, 0]  // the CRC, per response
        let size = UInt32(truncatingIfNeeded: page.count).littleEndian
        withUnsafeBytes(of: size) { output += $0 }
        let spliced = SplicedBytes(base: output, holes: tokenOffsets.map { $0..<($0 + length) }, slot: slotOffset,
                                   checksum: checksum, slotChecksum: slotChecksum)
        guard SpliceCheck.holds(spliced, page: page, holes: holes, decode: { Gzip.decompress($0) }) else { return nil }
        guard let slot else { return spliced }
        return SpliceCheck.holdsInserting(spliced, page: page, holes: holes, slot: slot) ? spliced : nil
    }

    /// `bytes` as the raw DEFLATE run a gzip form takes at its slot: compressed fast (it is made
    /// once per insert), ending on a byte with a sync flush and no final block, and padded with
    /// empty blocks to a multiple of `runStep` bytes (`DeflatePadding`): the server keeps a copy
    /// of the form per length of run, so runs of a few lengths keep few copies.
    static func insertion(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var output: [UInt8] = []
        guard bytes.count > 0 else { return output }
        // A small window and hash table: zlib clears both when a stream starts, which for the
        // defaults (32 KB and 64 KB) cost more than compressing a few kilobytes of rows.
        RawDeflate(level: OnTheFly.gzipLevel, windowBits: -12, memLevel: 6).deflate(bytes, flush: Z_SYNC_FLUSH, into: &output)
        DeflatePadding.pad(&output, toMultipleOf: runStep)
        return output
    }

    /// What the length of an insert's run is rounded up to.
    static let runStep = 64

    /// One part as raw DEFLATE with `history` as its dictionary, the smaller of two strategies.
    private static func smallest(_ part: UnsafeRawBufferPointer, after history: UnsafeRawBufferPointer,
                                 level: Int32, flush: Int32) -> [UInt8] {
        let tries = [Z_DEFAULT_STRATEGY, Z_FILTERED].map { strategy in
            var output: [UInt8] = []
            let stream = RawDeflate(level: level, memLevel: 9, strategy: strategy)
            if history.count > 0 { stream.setDictionary(history) }
            stream.deflate(part, flush: flush, into: &output)
            return output
        }
        return tries.min { $0.count < $1.count }!
    }
}

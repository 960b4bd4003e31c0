/// Empty DEFLATE blocks that lengthen a raw DEFLATE run ending on a byte (after a sync flush)
/// without changing what it inflates to, so that runs come in a few lengths.
///
/// An empty stored block takes 5 bytes on a byte boundary: 3 header bits, the rest of the byte,
/// then `00 00 FF FF`. An empty fixed-Huffman block takes 10 bits (3 header bits and the 7-bit
/// end-of-block code, all zero but the type's low bit), and k of them before a stored block make
/// it ceil((10k + 3) / 8) + 4 bytes: 5, 6, 7, 9, 10, 11, 12, 14 for k = 0 to 7. Together they
/// make any length from 5 up but 8.
enum DeflatePadding {
    /// Appends empty blocks to `run` until its length is a multiple of `step` (at least 16).
    static func pad(_ run: inout [UInt8], toMultipleOf step: Int) {
        precondition(step >= 16, "a step leaves room for the padding's shortest lengths")
        var needed = (step - run.count % step) % step
        if (1...4).contains(needed) || needed == 8 { needed += step }
        // Stored blocks down to 10...14, each of those one block but 13 (6 and 7).
        while needed > 14 { append(fixedBlocks: 0, to: &run); needed -= 5 }
        switch needed {
        case 0: break
        case 13:
            append(fixedBlocks: 1, to: &run)
            append(fixedBlocks: 2, to: &run)
        default:
            append(fixedBlocks: [5: 0, 6: 1, 7: 2, 9: 3, 10: 4, 11: 5, 12: 6, 14: 7][needed]!, to: &run)
        }
    }

    /// `count` empty fixed-Huffman blocks and an empty stored block, ending on a byte.
    private static func append(fixedBlocks count: Int, to run: inout [UInt8]) {
        var header = [UInt8](repeating: 0, count: (10 * count + 3 + 7) / 8)
        // Each fixed block's only set bit is its type's low bit, the block's second.
        for block in 0..<count {
            let bit = 10 * block + 1
            header[bit / 8] |= 1 << (bit % 8)
        }
        run += header
        run += [0x00, 0x00, 0xFF, 0xFF]
    }
}

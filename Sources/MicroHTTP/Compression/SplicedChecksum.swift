import CZlib

/// The CRC-32 a spliced gzip page ends with, worked out per response from the CRCs of its fixed
/// parts (taken once, when the page was compressed) and of this response's token, with zlib's
/// `crc32_combine_op`: the page is never read again to check-sum it.
struct SplicedChecksum: Sendable {
    /// Where the four bytes of the CRC go in the compressed page.
    let offset: Int
    /// The CRC of the fixed part before the first token.
    let first: UInt32
    /// `crc32_combine_gen(token length)`: appends a token's CRC.
    let tokenStep: UInt
    /// Each later fixed part: its CRC and `crc32_combine_gen(its length)`.
    let parts: [Part]

    struct Part: Sendable {
        let crc: UInt32
        let step: UInt
    }

    /// Fixed parts between `holes` of `page`, which is `count` bytes long.
    init(offset: Int, page: UnsafeRawBufferPointer, holes: [Range<Int>], tokenLength: Int) {
        self.offset = offset
        var starts = [0], ends: [Int] = []
        for hole in holes {
            ends.append(hole.lowerBound)
            starts.append(hole.upperBound)
        }
        ends.append(page.count)
        let crcs = zip(starts, ends).map { Gzip.crc32(0, UnsafeRawBufferPointer(rebasing: page[$0..<$1])) }
        first = crcs[0]
        tokenStep = UInt(crc32_combine_gen(.init(tokenLength)))
        parts = zip(crcs, zip(starts, ends)).dropFirst().map { crc, range in
            Part(crc: crc, step: UInt(crc32_combine_gen(.init(range.1 - range.0))))
        }
    }

    /// Writes the CRC of the page with `token` in every hole, little-endian, into `bytes`.
    func write(into bytes: UnsafeMutableRawPointer, token: UnsafeRawBufferPointer) {
        let tokenCRC = uLong(Gzip.crc32(0, token))
        var crc = uLong(first)
        for part in parts {
            crc = crc32_combine_op(crc, tokenCRC, uLong(tokenStep))
            crc = crc32_combine_op(crc, uLong(part.crc), uLong(part.step))
        }
        (bytes + offset).storeBytes(of: UInt32(truncatingIfNeeded: crc).littleEndian, as: UInt32.self)
    }
}

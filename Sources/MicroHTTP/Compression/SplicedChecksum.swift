import CZlib

/// The CRC-32 a spliced gzip page ends with, worked out per response without reading the page.
///
/// A CRC-32 is affine: for messages of one length, crc(A ⊕ B) = crc(A) ⊕ crc(B) ⊕ crc(zeros).
/// The page with token T is the page with zeros in its holes (`base` is its CRC, taken once)
/// XOR a message that holds T in every hole and zeros elsewhere; that message's part is linear
/// in T's bytes. So a table made once per page, the contribution of each value at each token
/// offset (in every hole at once: the holes share their token), gives the CRC with one lookup
/// per token byte. The contributions come from zlib's `crc32_combine_gen`/`crc32_combine_op`,
/// which shift a CRC past a run of zero bytes.
struct SplicedChecksum: Sendable {
    /// Where the four bytes of the CRC go in the compressed page.
    let offset: Int
    /// The CRC of the page with zero bytes in its holes.
    let base: UInt32
    /// `table[position * 256 + value]`: what `value` at `position` of the token adds.
    let table: [UInt32]

    /// The CRC of `page` (its holes all `tokenLength` long) as a function of the token.
    init(offset: Int, page: UnsafeRawBufferPointer, holes: [Range<Int>], tokenLength: Int) {
        self.offset = offset
        var zeroed = Array(page)
        for hole in holes { zeroed.replaceSubrange(hole, with: repeatElement(0, count: hole.count)) }
        base = zeroed.withUnsafeBytes { Gzip.crc32(0, $0) }
        // One byte's linear part: crc([v]) ⊕ crc([0]); shifted past the zeros after it.
        func single(_ value: UInt8) -> uLong {
            withUnsafeBytes(of: value) { uLong(Gzip.crc32(0, $0)) } ^ withUnsafeBytes(of: UInt8(0)) { uLong(Gzip.crc32(0, $0)) }
        }
        let bits = (0..<8).map { single(1 << $0) }
        var table = [UInt32](repeating: 0, count: tokenLength * 256)
        for position in 0..<tokenLength {
            var perBit = [uLong](repeating: 0, count: 8)
            for hole in holes {
                let step = crc32_combine_gen(.init(page.count - (hole.lowerBound + position) - 1))
                for bit in 0..<8 { perBit[bit] ^= crc32_combine_op(bits[bit], 0, step) }
            }
            for value in 0..<256 {
                var sum: uLong = 0
                for bit in 0..<8 where value & (1 << bit) != 0 { sum ^= perBit[bit] }
                table[position * 256 + value] = UInt32(truncatingIfNeeded: sum)
            }
        }
        self.table = table
    }

    /// Writes the CRC of the page with `token` in every hole, little-endian, into `bytes`.
    func write(into bytes: UnsafeMutableRawPointer, token: UnsafeRawBufferPointer) {
        (bytes + offset).storeBytes(of: value(token: token).littleEndian, as: UInt32.self)
    }

    /// The CRC of the page with `token` in every hole.
    func value(token: UnsafeRawBufferPointer) -> UInt32 {
        var crc = base
        // A page without holes has no table: its token goes nowhere.
        let length = min(token.count, table.count / 256)
        table.withUnsafeBufferPointer { table in
            for position in 0..<length { crc ^= table[position &* 256 &+ Int(token[position])] }
        }
        return crc
    }
}

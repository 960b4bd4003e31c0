import CZlib

/// The CRC-32 of a spliced gzip page with bytes inserted at its slot: the CRCs of the part
/// before the slot and of the part after it (each a `SplicedChecksum` of the token), joined
/// around the CRC of the inserted bytes. The part after the slot has a fixed length, so its
/// shift is worked out once.
struct SlotChecksum: Sendable {
    let prefix: SplicedChecksum
    let suffix: SplicedChecksum
    /// The page's length without anything inserted.
    let pageLength: Int
    /// `crc32_combine_gen` of the suffix's length.
    private let suffixShift: uLong

    init(page: UnsafeRawBufferPointer, holes: [Range<Int>], slot: Int, tokenLength: Int) {
        let before = holes.filter { $0.upperBound <= slot }
        let after = holes.filter { $0.lowerBound >= slot }.map { ($0.lowerBound - slot)..<($0.upperBound - slot) }
        prefix = SplicedChecksum(offset: 0, page: UnsafeRawBufferPointer(rebasing: page[..<slot]), holes: before,
                                 tokenLength: tokenLength)
        suffix = SplicedChecksum(offset: 0, page: UnsafeRawBufferPointer(rebasing: page[slot...]), holes: after,
                                 tokenLength: tokenLength)
        pageLength = page.count
        suffixShift = crc32_combine_gen(.init(page.count - slot))
    }

    /// The CRC of the page with `token` in its holes and `inserted` at its slot.
    func value(token: UnsafeRawBufferPointer, inserted: UnsafeRawBufferPointer) -> UInt32 {
        value(token: token, insertedCRC: Gzip.crc32(0, inserted), insertedCount: inserted.count)
    }

    /// The same from the inserted bytes' CRC and length, kept with them (`SlotInsert`).
    func value(token: UnsafeRawBufferPointer, insertedCRC: UInt32, insertedCount: Int) -> UInt32 {
        var crc = uLong(prefix.value(token: token))
        crc = crc32_combine(crc, uLong(insertedCRC), .init(insertedCount))
        return UInt32(truncatingIfNeeded: crc32_combine_op(crc, uLong(suffix.value(token: token)), suffixShift))
    }
}

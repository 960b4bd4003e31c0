/// Decodes a compressed splice with two tokens that differ in every byte and compares each with
/// the page it stands for. A back-reference into a token, or a decoder state that depends on
/// one, would make at least one of the two differ; when both match, every token of that length
/// decodes right. Done once per compressed page, so a fault in the splicers costs compression,
/// never a wrong page.
enum SpliceCheck {
    static func holds(_ spliced: SplicedBytes, page: UnsafeRawBufferPointer, holes: [Range<Int>],
                      decode: ([UInt8]) -> [UInt8]?) -> Bool {
        let length = holes.first?.count ?? 0
        guard length <= SplicedFilling.capacity else { return false }
        for byte in [UInt8(ascii: "a"), UInt8(ascii: "b")] {
            let filling = SplicedFilling([UInt8](repeating: byte, count: length))
            let expected = StandIn.filled(page, holes: holes, with: holes.map { _ in [UInt8](repeating: byte, count: length) })
            guard let decoded = decode(spliced.filled(with: filling)), decoded == expected else { return false }
        }
        return true
    }

    /// The gzip form with bytes inserted at its slot, checked the same way: two inserts of other
    /// lengths, with the two tokens.
    static func holdsInserting(_ spliced: SplicedBytes, page: UnsafeRawBufferPointer, holes: [Range<Int>],
                               slot: Int) -> Bool {
        let length = holes.first?.count ?? 0
        for (byte, insert) in [(UInt8(ascii: "a"), Array("<p>one</p>".utf8)), (UInt8(ascii: "b"), Array(repeating: UInt8(ascii: "x"), count: 70_000))] {
            let token = [UInt8](repeating: byte, count: length)
            let expected = SplicedBody(base: Array(page), holes: holes, slot: slot, filling: SplicedFilling(token), insert: insert)
            guard let body = expected.gzipBytes(form: spliced),
                  Gzip.decompress(body) == expected.bytes else { return false }
        }
        return true
    }

    /// A brotli form with an uncompressed meta-block at its slot, checked the same way: two
    /// inserts of its length that differ in every byte, with the two tokens.
    static func holdsInsertingBrotli(_ spliced: SplicedBytes, page: UnsafeRawBufferPointer, holes: [Range<Int>],
                                     slot: Int) -> Bool {
        guard let capacity = spliced.slotCapacity else { return false }
        let length = holes.first?.count ?? 0
        guard length <= SplicedFilling.capacity else { return false }
        for (byte, fill) in [(UInt8(ascii: "a"), UInt8(ascii: "x")), (UInt8(ascii: "b"), UInt8(ascii: "y"))] {
            let token = [UInt8](repeating: byte, count: length)
            let expected = SplicedBody(base: Array(page), holes: holes, slot: slot, filling: SplicedFilling(token),
                                       insert: [UInt8](repeating: fill, count: capacity))
            guard let body = expected.brotliBytes(form: spliced), BrotliEncoder.decompress(body) == expected.bytes
            else { return false }
        }
        return true
    }
}

import Testing
import TestSupport
@testable import MicroHTTP

/// Bytes of any length inserted at a page's slot, as a visitor's own rows are: the identity body
/// and the gzip form cut at the slot both give the page with the insert and the token, for
/// random pages, holes, slots and inserts; zlib's own decoder checks the gzip (CRC and length).
@Suite struct SlotSpliceTests {
    /// The page with `insert` at `slot` and `token` in every hole, made the plain way.
    static func expected(_ page: [UInt8], holes: [Range<Int>], slot: Int, token: [UInt8], insert: [UInt8]) -> [UInt8] {
        var bytes = page
        for hole in holes.reversed() { bytes.replaceSubrange(hole, with: token) }
        let shift = holes.filter { $0.upperBound <= slot }.reduce(0) { $0 + token.count - $1.count }
        bytes.insert(contentsOf: insert, at: slot + shift)
        return bytes
    }

    /// A slot in a page of `count` bytes outside every hole, at a hole's edge now and then.
    static func slot(outside holes: [Range<Int>], in count: Int, using generator: inout SplitMix64) -> Int {
        let edges = holes.flatMap { [$0.lowerBound, $0.upperBound] } + [0, count]
        var slot = Bool.random(using: &generator) ? edges.randomElement(using: &generator)! : Int.random(in: 0...count, using: &generator)
        while holes.contains(where: { $0.lowerBound < slot && slot < $0.upperBound }) { slot = Int.random(in: 0...count, using: &generator) }
        return slot
    }

    @Test(arguments: 0..<40)
    func randomInsertsDecodeToThePage(seed: UInt64) throws {
        var generator = SplitMix64(state: seed)
        let length = [0, 1, 100, 3000, 40_000].randomElement(using: &generator)!
        let page = SplicerTests.page(length: length, using: &generator)
        let tokenLength = Int.random(in: 1...SplicedFilling.capacity, using: &generator)
        let holes = SplicerTests.holes(in: page.count, length: tokenLength, number: Int.random(in: 0...5, using: &generator),
                                       using: &generator)
        let slot = Self.slot(outside: holes, in: page.count, using: &generator)
        let spliced = SplicedBytes(base: page, holes: holes, slot: slot)
        spliced.prepareEncodings()
        let cut = try #require(spliced.gzipForInsert)
        for _ in 0..<4 {
            let token = SplicerTests.token(tokenLength, using: &generator)
            let insert = SplicerTests.page(length: [0, 1, 500, 9000, 70_000].randomElement(using: &generator)!, using: &generator)
            let body = SplicedBody(spliced: spliced, filling: SplicedFilling(token), insert: insert)
            let expected = Self.expected(page, holes: holes, slot: slot, token: token, insert: insert)
            #expect(body.bytes == expected, "seed \(seed)")
            #expect(body.count == expected.count)
            let gzip = try #require(body.gzipBytes(form: cut))
            #expect(Decoders.gunzip(gzip) == expected, "seed \(seed), slot \(slot) of \(page.count), insert \(insert.count)")
            // The copies the server sends from, reused across tokens and inserts: the same bytes.
            guard !insert.isEmpty else { continue }
            for coding in [ContentCoding.identity, .gzip] {
                let copy = try #require(body.leaseInserting(coding))
                let sent = Array(UnsafeRawBufferPointer(start: copy.bytes, count: copy.count))
                #expect(sent == (coding == .gzip ? gzip : expected), "seed \(seed), \(coding)")
                copy.giveBack()
            }
        }
    }

    @Test func aPageWithoutASlotTakesNoInsertAndKeepsItsUncutForm() throws {
        var generator = SplitMix64(state: 7)
        let page = SplicerTests.page(length: 5000, using: &generator)
        let spliced = SplicedBytes(base: page, holes: [10..<20])
        spliced.prepareEncodings()
        #expect(spliced.gzipForInsert == nil)
        #expect(SplicedBody(spliced: spliced, filling: SplicedFilling(Array(repeating: 1, count: 10)), insert: [1, 2]).insert.isEmpty)
        // With a slot, responses without an insert keep the form that refers back across it.
        let slotted = SplicedBytes(base: page, holes: [10..<20], slot: 2500)
        slotted.prepareEncodings()
        let uncut = try #require(slotted.encoded(.gzip)), cut = try #require(slotted.gzipForInsert)
        #expect(uncut.slot == nil && cut.slot != nil)
        #expect(uncut.base.count < cut.base.count)
    }
}

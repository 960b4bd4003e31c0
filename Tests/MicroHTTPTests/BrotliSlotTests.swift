import Testing
import TestSupport
@testable import MicroHTTP

/// A page's brotli form with an uncompressed meta-block at its slot, one form per length of
/// insert: the stream with any insert of that length and any token is the page with them,
/// for random pages, holes and slots; brotli's own decoder checks it. The server sends that
/// form to a client that prefers brotli once it is made.
@Suite struct BrotliSlotTests {
    @Test(arguments: 0..<16)
    func insertsOfTheFormsLengthDecodeToThePage(seed: UInt64) throws {
        var generator = SplitMix64(state: seed &+ 100)
        let page = SplicerTests.page(length: [0, 100, 3000, 30_000].randomElement(using: &generator)!, using: &generator)
        let tokenLength = Int.random(in: 1...SplicedFilling.capacity, using: &generator)
        let holes = SplicerTests.holes(in: page.count, length: tokenLength, number: Int.random(in: 0...5, using: &generator),
                                       using: &generator)
        let slot = SlotSpliceTests.slot(outside: holes, in: page.count, using: &generator)
        let capacity = [1, 1024, 8192, 24_576].randomElement(using: &generator)!
        let spliced = SplicedBytes(base: page, holes: holes, slot: slot, slotCapacities: [capacity, capacity * 2])
        let form = try #require(spliced.prepareBrotliForInsert(count: capacity), "seed \(seed)")
        #expect(form.slot != nil && form.slotCapacity == capacity)
        for _ in 0..<3 {
            let token = SplicerTests.token(tokenLength, using: &generator)
            let insert = Array(SplicerTests.page(length: capacity, using: &generator).prefix(capacity))
            let body = SplicedBody(spliced: spliced, filling: SplicedFilling(token), insert: insert)
            let expected = SlotSpliceTests.expected(page, holes: holes, slot: slot, token: token, insert: insert)
            let stream = try #require(body.brotliBytes(form: form))
            #expect(Decoders.unbrotli(stream) == expected, "seed \(seed), slot \(slot) of \(page.count), capacity \(capacity)")
            // The copy the server sends from, reused across tokens and inserts: the same bytes.
            let copy = try #require(body.leaseInserting(.brotli))
            #expect(Array(UnsafeRawBufferPointer(start: copy.bytes, count: copy.count)) == stream)
            copy.giveBack()
            // An insert of another length has no place in this form.
            let longer = SplicedBody(spliced: spliced, filling: SplicedFilling(token), insert: insert + [1])
            #expect(longer.brotliBytes(form: form) == nil)
        }
        // A length the template was not given gets no form.
        #expect(spliced.prepareBrotliForInsert(count: capacity + 3) == nil)
    }

    @Test func aBrotliOnlyClientGetsTheBrotliFormOnceMade() throws {
        var generator = SplitMix64(state: 42)
        let page = Array(("<main>" + String(repeating: "<p>The same paragraph, and again.</p>", count: 400) + "</main>").utf8)
        let spliced = SplicedBytes(base: page, holes: [6..<16], slot: 3000, slotCapacities: [2048])
        let token = SplicedFilling(Array("0123456789".utf8))
        let fits = Array(SplicerTests.page(length: 2048, using: &generator).prefix(2048))
        let shorter = Array(SplicerTests.page(length: 2000, using: &generator).prefix(2000))
        var router = Router()
        router.get("/fits") { _ in .html(.spliced(SplicedBody(spliced: spliced, filling: token, insert: fits))) }
        router.get("/other") { _ in .html(.spliced(SplicedBody(spliced: spliced, filling: token, insert: shorter))) }
        let server = try TestServer(router: router)
        let client = server.client
        for target in ["/fits", "/other"] {
            let expected = SplicedBody(spliced: spliced, filling: token, insert: target == "/fits" ? fits : shorter).bytes
            // Before the form: gzip to a client that takes it, brotli compressed per response to one that does not.
            let both = try client.get(target, headers: [("Accept-Encoding", "br, gzip")])
            #expect(both.header("Content-Encoding") == "gzip" && Decoders.gunzip(both.body) == expected)
            let brotli = try client.get(target, headers: [("Accept-Encoding", "br")])
            #expect(brotli.header("Content-Encoding") == "br" && Decoders.unbrotli(brotli.body) == expected)
        }
        let form = try #require(spliced.prepareBrotliForInsert(count: 2048))
        let body = SplicedBody(spliced: spliced, filling: token, insert: fits)
        let response = try client.get("/fits", headers: [("Accept-Encoding", "br")])
        #expect(response.header("Content-Encoding") == "br")
        #expect(response.body == body.brotliBytes(form: form), "the spliced form, not compressed per response")
        #expect(Decoders.unbrotli(response.body) == body.bytes)
        // The gzip form compresses the insert, the brotli form carries it as it is: gzip when taken.
        #expect(try client.get("/fits", headers: [("Accept-Encoding", "br, gzip")]).header("Content-Encoding") == "gzip")
        let other = try client.get("/other", headers: [("Accept-Encoding", "br")])
        #expect(other.header("Content-Encoding") == "br" && other.body != body.brotliBytes(form: form))
    }

    @Test func aKeptInsertIsCompressedOnce() throws {
        var generator = SplitMix64(state: 9)
        let page = SplicerTests.page(length: 5000, using: &generator)
        let spliced = SplicedBytes(base: page, holes: [10..<20], slot: 2500)
        spliced.prepareEncodings()
        let cut = try #require(spliced.gzipForInsert)
        let insert = SlotInsert(SplicerTests.page(length: 3000, using: &generator))
        #expect(!insert.isDeflated)
        let token = SplicedFilling(Array(repeating: 7, count: 10))
        let first = try #require(SplicedBody(spliced: spliced, filling: token, inserted: insert).gzipBytes(form: cut))
        #expect(insert.isDeflated)
        let again = try #require(SplicedBody(spliced: spliced, filling: SplicedFilling(Array(repeating: 8, count: 10)),
                                             inserted: insert).gzipBytes(form: cut))
        let expected = SlotSpliceTests.expected(page, holes: [10..<20], slot: 2500, token: Array(repeating: 8, count: 10),
                                                insert: insert.bytes)
        #expect(Decoders.gunzip(again) == expected)
        #expect(first.count == again.count)
    }
}

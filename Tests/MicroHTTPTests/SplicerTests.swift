import Testing
import TestSupport
@testable import MicroHTTP

/// The compressed forms of a spliced page, patched per response, decode with zlib's and
/// brotli's own decoders to the page with that response's token, for random pages and tokens.
@Suite struct SplicerTests {
    /// HTML-like text: tags, words, repeats (for back-references), some non-ASCII.
    static func page(length: Int, using generator: inout SplitMix64) -> [UInt8] {
        let words = ["<div class=\"tile\">", "</div>", "<a href=\"/item/", "\">", "Stream", "Nouvel an ", "caf\u{E9}",
                     " \u{2014} ", "<input type=\"hidden\" name=\"_csrf\" value=\"", "\u{1F389}", "grid", "\n"]
        var bytes: [UInt8] = []
        while bytes.count < length {
            if Bool.random(using: &generator) {
                bytes += Array(words.randomElement(using: &generator)!.utf8)
            } else {
                bytes.append(UInt8.random(in: 0x20...0x7E, using: &generator))
            }
        }
        return bytes
    }

    /// Sorted, disjoint holes of one length.
    static func holes(in count: Int, length: Int, number: Int, using generator: inout SplitMix64) -> [Range<Int>] {
        guard count >= length * number, number > 0 else { return [] }
        var starts = Set<Int>()
        for _ in 0..<number { starts.insert(Int.random(in: 0...(count - length), using: &generator)) }
        var holes: [Range<Int>] = []
        for start in starts.sorted() where holes.last.map({ $0.upperBound <= start }) ?? true {
            holes.append(start..<(start + length))
        }
        return holes
    }

    static func token(_ length: Int, using generator: inout SplitMix64) -> [UInt8] {
        // Any bytes at all, 0xFF included: the splice must not depend on what a token holds.
        (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test(arguments: 0..<40)
    func randomPagesDecodeToThePageWithEachToken(seed: UInt64) throws {
        var generator = SplitMix64(state: seed)
        let length = [0, 1, 100, 3000, 40_000].randomElement(using: &generator)!
        let page = Self.page(length: length, using: &generator)
        let tokenLength = Int.random(in: 1...SplicedFilling.capacity, using: &generator)
        let holes = Self.holes(in: page.count, length: tokenLength, number: Int.random(in: 0...5, using: &generator),
                               using: &generator)
        let splices = try page.withUnsafeBytes { page in
            [(try #require(GzipSplicer.splice(page, holes: holes)), Decoders.gunzip),
             (try #require(BrotliSplicer.splice(page, holes: holes)), Decoders.unbrotli)]
        }
        for _ in 0..<5 {
            let token = Self.token(tokenLength, using: &generator)
            var expected = page
            for hole in holes { expected.replaceSubrange(hole, with: token) }
            for (spliced, decode) in splices {
                let copy = try #require(spliced.lease(filling: SplicedFilling(token)))
                let sent = Array(UnsafeRawBufferPointer(start: copy.bytes, count: copy.count))
                copy.giveBack()
                #expect(decode(sent) == expected, "seed \(seed), \(holes.count) holes of \(tokenLength)")
            }
        }
    }

    /// A hole at the very start and the very end, and holes side by side.
    @Test func holesAtTheEdgesAndTouching() throws {
        var generator = SplitMix64(state: 99)
        let page = Self.page(length: 5000, using: &generator)
        let holes = [0..<8, 8..<16, 2000..<2008, (page.count - 8)..<page.count]
        let token = Array("A1b2C3d4".utf8)
        var expected = page
        for hole in holes { expected.replaceSubrange(hole, with: token) }
        try page.withUnsafeBytes { page in
            let gzip = try #require(GzipSplicer.splice(page, holes: holes))
            #expect(Decoders.gunzip(gzip.filled(with: SplicedFilling(token))) == expected)
            let brotli = try #require(BrotliSplicer.splice(page, holes: holes))
            #expect(Decoders.unbrotli(brotli.filled(with: SplicedFilling(token))) == expected)
        }
    }

    /// Holes of different lengths cannot be spliced; the server compresses such a page per response.
    @Test func holesOfSeveralLengthsAreRefused() {
        let page = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        page.withUnsafeBytes { page in
            #expect(GzipSplicer.splice(page, holes: [0..<4, 10..<12]) == nil)
            #expect(BrotliSplicer.splice(page, holes: [0..<4, 10..<12]) == nil)
        }
    }

    /// The splice costs little over compressing the whole page at once (gzip 6, brotli 5).
    @Test func theSpliceIsWithinFivePercentOfTheWholePage() throws {
        var generator = SplitMix64(state: 7)
        let page = Self.page(length: 37_000, using: &generator)
        let holes = [300..<343, 1200..<1243, 9000..<9043]
        try page.withUnsafeBytes { page in
            let gzip = try #require(GzipSplicer.splice(page, holes: holes)).base.count
            let brotli = try #require(BrotliSplicer.splice(page, holes: holes)).base.count
            let wholeGzip = Gzip.compress(page, level: 6).count
            let wholeBrotli = BrotliEncoder.compress(page, quality: 5).count
            #expect(Double(gzip) <= Double(wholeGzip) * 1.05, "gzip \(gzip) vs \(wholeGzip)")
            #expect(Double(brotli) <= Double(wholeBrotli) * 1.05, "brotli \(brotli) vs \(wholeBrotli)")
        }
    }
}

import Basics
import Testing

/// The visitor id is carried as two words but spelled as 32 lowercase hex digits everywhere it
/// is seen: the two must agree byte for byte, and hashes of it must not move.
@Suite struct VisitorIDTests {
    @Test func anIdRoundTripsThroughItsDigitsByteForByte() {
        let texts = ["0123456789abcdef0123456789abcdef", "00000000000000000000000000000000",
                     "ffffffffffffffffffffffffffffffff", "a0b1c2d3e4f5a6b7c8d9eaf00f1e2d3c"]
        for text in texts {
            let id = VisitorID(text)
            #expect(id?.text == text)
            #expect(id.map { $0.withDigits { Array($0) } } == Array(text.utf8))
        }
        #expect(VisitorID("0123456789abcdef0123456789abcdef") == VisitorID(high: 0x0123_4567_89ab_cdef, low: 0x0123_4567_89ab_cdef))
    }

    @Test func randomIdsSpellTheirWordsAsPaddedHex() {
        for _ in 0..<1000 {
            let id = VisitorID.random()
            let expected = [id.high, id.low].map { word in
                let digits = String(word, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
            #expect(id.text == expected)
            #expect(VisitorID(expected) == id)
        }
    }

    @Test func onlyThirtyTwoLowercaseHexDigitsAreAnId() {
        let bad = ["", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
                   "0123456789ABCDEF0123456789abcdef", "0123456789abcdeg0123456789abcdef",
                   "0123456789abcdef0123456789abcde/", "0123456789abcdef0123456789abcde:",
                   "0123456789abcdef0123456789abcde`", "0123456789abcdef 123456789abcdef",
                   "0123456789abcdef0123456789abcdé", "visitor-1"]
        for text in bad {
            #expect(VisitorID(text) == nil, "\(text)")
            #expect(VisitorID(text) == nil)
        }
        // Every byte in every position: only 0-9 and a-f pass, each read as its own value.
        for position in 0..<32 {
            for byte in UInt8(0)...UInt8(255) {
                var bytes = Array("0123456789abcdef0123456789abcdef".utf8)
                bytes[position] = byte
                let good = (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
                let id = bytes.withUnsafeBufferPointer { VisitorID(utf8: $0) }
                #expect((id != nil) == good, "byte \(byte) at \(position)")
                if let id { #expect(id.text == String(decoding: bytes, as: UTF8.self)) }
            }
        }
        #expect(VisitorID("0123456789abcdef0123456789abcdef"[...]) != nil)
    }

    @Test func aKnownIdKeepsItsHash() {
        let text = "0123456789abcdef0123456789abcdef"
        let id = VisitorID(text)!
        #expect(StableHash.hash(id) == StableHash.hash(text))
        #expect(StableHash.hash(id) == 0x26d5_2149_8b20_56f3)
        let salted = StableHash.fnv1a("experiment\u{0}layout\u{0}")
        #expect(StableHash.fnv1a(id, from: salted) == StableHash.fnv1a("experiment\u{0}layout\u{0}" + text))
    }
}

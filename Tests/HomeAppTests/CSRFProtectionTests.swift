import Basics
import CSHA256
import Crypto
import Foundation
import MicroHTTP
import Synchronization
import Testing
@testable import HomeApp

/// The hand-keyed HMAC and base64url writer behind CSRF tokens agree with swift-crypto and Foundation.
@Suite struct CSRFProtectionTests {
    @Test(arguments: [0, 1, 32, 63, 64, 65, 200], [true, false])
    func keyedHMACMatchesSwiftCrypto(keyLength: Int, accelerated: Bool) {
        let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let mac = KeyedHMAC(key: key, accelerated: accelerated)
        // Every length from empty to past two blocks, so padding falls on each side of a block end.
        let messages = ["", "csrf:0123456789abcdef0123456789abcdef", String(repeating: "é", count: 100)]
            + (0...140).map { String(repeating: "x", count: $0) }
        for message in messages {
            let expected = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: key))
            #expect(mac.authenticationCode(for: message) == Array(expected))
        }
        for length in [0, 50, 58, 59, 64, 123] {
            let message = String(repeating: "v", count: length)
            let joined = HMAC<SHA256>.authenticationCode(for: Data(("csrf:" + message).utf8), using: SymmetricKey(data: key))
            #expect(mac.authenticationCode(for: message, after: "csrf:") == Array(joined))
        }
    }

    @Test func hashingMatchesSwiftCrypto() {
        for length in [0, 1, 55, 56, 63, 64, 65, 200] {
            let text = String(repeating: "s", count: length) + "é"
            #expect(Hashing.sha256(text) == Array(SHA256.hash(data: Data(text.utf8))))
        }
    }

    @Test func theSHAExtensionsAreUsedWhereTheCPUHasThem() throws {
        // The portable code is checked above either way; this says which one the server runs.
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let flags = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }.map { $0.split(separator: " ") } ?? []
        #expect((dh_sha256_has_acceleration() != 0) == flags.contains("sha_ni"))
    }

    @Test func base64URLMatchesFoundationWithoutPadding() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 250) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(bytes.withUnsafeBytes { Base64URL.encode($0) } == expected)
            #expect(bytes.withUnsafeBytes { Base64URL.filling($0) } == SplicedFilling(Array(expected.utf8)))
            expected.utf8.withContiguousStorageIfAvailable { text in
                bytes.withUnsafeBytes { #expect(Base64URL.isEncoding(text, of: $0)) }
            }
        }
    }

    @Test func tokensAreStableAcrossInstancesWithOneSecretAndCheckedExactly() throws {
        let one = CSRFProtection(secret: "s3cret"), two = CSRFProtection(secret: "s3cret")
        let visitor = try #require(VisitorID("0123456789abcdef0123456789abcdef"))
        let token = one.token(for: visitor)
        #expect(token.utf8.count == 43)
        #expect(two.isValid(token, for: visitor))
        #expect(!two.isValid(token, for: VisitorID("fedcba9876543210fedcba9876543210")))
        #expect(!CSRFProtection(secret: "other").isValid(token, for: visitor))
        #expect(!one.isValid(String(token.dropLast()), for: visitor))
        #expect(!one.isValid(token + "AA", for: visitor))
        #expect(!one.isValid(nil, for: visitor))
        #expect(!one.isValid(token, for: nil))
        // Other spellings of the same bytes are refused: padded, or with the unused low bits set.
        #expect(!one.isValid(token + "=", for: visitor))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(alphabet.firstIndex(of: token.last!))
        #expect(!one.isValid(String(token.dropLast()) + String(alphabet[last + 1]), for: visitor))
    }

    @Test func aTokenIsTheHMACOfTheIdsDigitsAsBefore() throws {
        // Pinned: tokens in pages already served and forms already open must stay valid.
        let csrf = CSRFProtection(secret: "s3cret")
        let visitor = try #require(VisitorID("0123456789abcdef0123456789abcdef"))
        let expected = HMAC<SHA256>.authenticationCode(for: Data("csrf:0123456789abcdef0123456789abcdef".utf8),
                                                       using: SymmetricKey(data: Hashing.sha256("s3cret")))
        let encoded = Data(expected).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(csrf.token(for: visitor) == encoded)
        #expect(csrf.signature(of: visitor.text, after: "csrf:") == encoded)
    }

    @Test func aKeptTokenIsTheComputedOneForManyVisitorsAndThoseWhoShareTheirPlace() {
        let csrf = CSRFProtection(secret: "s3cret")
        // Far more visitors than places, so that most replace another; asked twice, in two orders.
        var visitors = (0..<5000).map { _ in VisitorID.random() }
        // And groups of ids that share one place, asked in turn.
        let first = VisitorID.random()
        var sharing = [first]
        while sharing.count < 6 {
            let candidate = VisitorID.random()
            if CSRFTokenCache.place(of: candidate) == CSRFTokenCache.place(of: first) { sharing.append(candidate) }
        }
        visitors += Array(repeating: sharing, count: 20).flatMap { $0 }
        for visitor in visitors + visitors.reversed() + visitors {
            // The uncached path: the HMAC of the id's text, as every token was made before the cache.
            let expected = csrf.signature(of: visitor.text, after: "csrf:")
            #expect(csrf.tokenFilling(for: visitor) == SplicedFilling(Array(expected.utf8)))
            #expect(csrf.token(for: visitor) == expected)
            #expect(csrf.isValid(expected, for: visitor))
        }
    }

    @Test func tokensAskedFromManyThreadsAtOnceAreTheComputedOnes() {
        let csrf = CSRFProtection(secret: "s3cret")
        // Fewer visitors than places and more: hits, misses and replacements race on each shard.
        let visitors = (0..<2000).map { _ in VisitorID.random() }
        let expected = visitors.map { csrf.signature(of: $0.text, after: "csrf:") }
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<4 {
                for index in stride(from: (thread * 97 + round) % visitors.count, to: visitors.count, by: 3)
                where csrf.token(for: visitors[index]) != expected[index] {
                    wrong.withLock { $0 += 1 }
                }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
    }

    @Test func aReturningVisitorsTokenIsTakenFromTheCacheNotSignedAgain() {
        let cache = CSRFTokenCache()
        let visitor = VisitorID.random()
        var made = 0
        let make = { (id: VisitorID) -> SplicedFilling in
            made += 1
            return SplicedFilling(Array(id.text.utf8))
        }
        for _ in 0..<10 { #expect(cache.filling(for: visitor, make: make) == SplicedFilling(Array(visitor.text.utf8))) }
        #expect(made == 1)
        // Another visitor in the same place replaces it: each is made again when it comes back.
        var other = VisitorID.random()
        while CSRFTokenCache.place(of: other) != CSRFTokenCache.place(of: visitor) { other = VisitorID.random() }
        #expect(cache.filling(for: other, make: make) == SplicedFilling(Array(other.text.utf8)))
        #expect(cache.filling(for: visitor, make: make) == SplicedFilling(Array(visitor.text.utf8)))
        #expect(made == 3)
    }
}

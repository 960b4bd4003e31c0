import Crypto
import Foundation
import Testing
@testable import HomeApp

/// The hand-keyed HMAC and base64url writer behind CSRF tokens agree with swift-crypto and Foundation.
@Suite struct CSRFProtectionTests {
    @Test(arguments: [0, 1, 32, 63, 64, 65, 200])
    func keyedHMACMatchesSwiftCrypto(keyLength: Int) {
        let key = (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let mac = KeyedHMAC(key: key)
        for message in ["", "csrf:0123456789abcdef0123456789abcdef", String(repeating: "é", count: 100)] {
            let expected = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: key))
            #expect(Array(mac.authenticationCode(for: message)) == Array(expected))
        }
        let joined = HMAC<SHA256>.authenticationCode(for: Data("csrf:0123456789abcdef".utf8), using: SymmetricKey(data: key))
        #expect(Array(mac.authenticationCode(for: "0123456789abcdef", after: "csrf:")) == Array(joined))
    }

    @Test func base64URLMatchesFoundationWithoutPadding() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 250) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(bytes.withUnsafeBytes { Base64URL.encode($0) } == expected)
            #expect(bytes.withUnsafeBytes { Base64URL.encodedBytes($0) } == Array(expected.utf8))
            #expect(Data(base64URLEncoded: expected).map(Array.init) == bytes)
        }
    }

    @Test func tokensAreStableAcrossInstancesWithOneSecretAndCheckedExactly() {
        let one = CSRFProtection(secret: "s3cret"), two = CSRFProtection(secret: "s3cret")
        let token = one.token(for: "0123456789abcdef0123456789abcdef")
        #expect(token.utf8.count == 43)
        #expect(two.isValid(token, for: "0123456789abcdef0123456789abcdef"))
        #expect(!two.isValid(token, for: "fedcba9876543210fedcba9876543210"))
        #expect(!CSRFProtection(secret: "other").isValid(token, for: "0123456789abcdef0123456789abcdef"))
        #expect(!one.isValid(String(token.dropLast()), for: "0123456789abcdef0123456789abcdef"))
        #expect(!one.isValid(token + "AA", for: "0123456789abcdef0123456789abcdef"))
        #expect(!one.isValid(nil, for: "0123456789abcdef0123456789abcdef"))
    }
}

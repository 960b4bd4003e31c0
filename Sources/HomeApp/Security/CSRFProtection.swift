import Basics
import MicroHTTP

/// Stateless CSRF tokens: an HMAC of the visitor id under the server's secret. Any instance
/// started with the same `--secret` accepts a token another one issued; no session store.
/// A class: every visit keeps one, and the key's two hash states made a struct of some 250
/// bytes to copy each time.
public final class CSRFProtection: Sendable {
    private let mac: KeyedHMAC
    /// Recent visitors' tokens: a returning visitor's page costs a look-up, not an HMAC.
    private let recent = CSRFTokenCache()

    /// `secret` from `--secret`; nil generates one for this process.
    public init(secret: String?) {
        if let secret {
            mac = KeyedHMAC(key: Hashing.sha256(secret))
        } else {
            // getrandom(2) on Linux: a cryptographically secure source.
            var generator = SystemRandomNumberGenerator()
            mac = KeyedHMAC(key: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        }
    }

    /// The token the visitor's forms carry: the HMAC of `csrf:` and the id's 32 digits.
    public func token(for visitor: VisitorID) -> String {
        tokenFilling(for: visitor).withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The token as its ASCII bytes, held inline as a cached page's holes take it.
    func tokenFilling(for visitor: VisitorID) -> SplicedFilling {
        recent.filling(for: visitor, make: signedFilling(for:))
    }

    /// The token computed, never taken from the cache.
    func signedFilling(for visitor: VisitorID) -> SplicedFilling {
        visitor.withDigits { digits in mac.withAuthenticationCode(for: digits, after: "csrf:") { Base64URL.filling($0) } }
    }

    /// Whether `token` was issued for `visitor`; computed afresh and compared in constant time.
    public func isValid(_ token: String?, for visitor: VisitorID?) -> Bool {
        guard let visitor, var token else { return false }
        return token.withUTF8 { given in
            visitor.withDigits { digits in
                mac.withAuthenticationCode(for: digits, after: "csrf:") { Base64URL.isEncoding(given, of: $0) }
            }
        }
    }

    /// An HMAC of `prefix` + `message` under the secret, URL-safe base64.
    func signature(of message: String, after prefix: StaticString = "") -> String {
        mac.withAuthenticationCode(for: message, after: prefix) { Base64URL.encode($0) }
    }

    /// Whether `signature` signs `prefix` + `message`: the exact text `signature(of:after:)`
    /// gives, compared in constant time. No decoding: only the one canonical spelling is accepted.
    func isValidSignature(_ signature: String?, of message: String, after prefix: StaticString = "") -> Bool {
        guard var signature else { return false }
        return signature.withUTF8 { given in
            mac.withAuthenticationCode(for: message, after: prefix) { Base64URL.isEncoding(given, of: $0) }
        }
    }
}

/// URL-safe base64 without padding (RFC 4648 §5), written straight into a string's or filling's storage.
enum Base64URL {
    static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: encodedCount(bytes.count)) { encode(bytes, into: $0) }
    }

    /// The encoding held inline; `bytes` must encode to at most `SplicedFilling.capacity` bytes.
    static func filling(_ bytes: UnsafeRawBufferPointer) -> SplicedFilling {
        SplicedFilling(count: encodedCount(bytes.count)) { _ = encode(bytes, into: $0.bindMemory(to: UInt8.self)) }
    }

    static func encodedCount(_ count: Int) -> Int { (count * 4 + 2) / 3 }

    /// Whether `byte` is one of the encoding's 64 characters.
    static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// Whether `text` is the encoding of `bytes`, in time that depends only on the lengths.
    static func isEncoding(_ text: UnsafeBufferPointer<UInt8>, of bytes: UnsafeRawBufferPointer) -> Bool {
        let count = encodedCount(bytes.count)
        guard text.count == count else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { expected in
            _ = encode(bytes, into: expected)
            var difference: UInt8 = 0
            for index in 0..<count { difference |= text[index] ^ expected[index] }
            return difference == 0
        }
    }

    /// Writes the encoding of `bytes` into `out` (room for `encodedCount`); returns its length.
    private static func encode(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        guard let input = bytes.baseAddress, let output = out.baseAddress else { return 0 }
        // Read from the literal's own bytes: an array would be retained and bounds-checked per character.
        let alphabet = Self.alphabet.utf8Start
        var written = 0, index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(input.load(fromByteOffset: index, as: UInt8.self)) << 16
                | UInt32(input.load(fromByteOffset: index + 1, as: UInt8.self)) << 8
                | UInt32(input.load(fromByteOffset: index + 2, as: UInt8.self))
            output[written] = alphabet[Int(chunk >> 18 & 63)]
            output[written + 1] = alphabet[Int(chunk >> 12 & 63)]
            output[written + 2] = alphabet[Int(chunk >> 6 & 63)]
            output[written + 3] = alphabet[Int(chunk & 63)]
            written += 4
            index += 3
        }
        let remaining = bytes.count - index
        guard remaining > 0 else { return written }
        let chunk = UInt32(input.load(fromByteOffset: index, as: UInt8.self)) << 16
            | (remaining > 1 ? UInt32(input.load(fromByteOffset: index + 1, as: UInt8.self)) << 8 : 0)
        output[written] = alphabet[Int(chunk >> 18 & 63)]
        output[written + 1] = alphabet[Int(chunk >> 12 & 63)]
        written += 2
        if remaining > 1 { output[written] = alphabet[Int(chunk >> 6 & 63)]; written += 1 }
        return written
    }

    private static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
}

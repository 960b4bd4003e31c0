import Crypto
import Foundation

/// Stateless CSRF tokens: an HMAC of the visitor id under the server's secret. Any instance
/// started with the same `--secret` accepts a token another one issued; no session store.
public struct CSRFProtection: Sendable {
    private let mac: KeyedHMAC

    /// `secret` from `--secret`; nil generates one for this process.
    public init(secret: String?) {
        if let secret {
            mac = KeyedHMAC(key: Array(SHA256.hash(data: Data(secret.utf8))))
        } else {
            mac = KeyedHMAC(key: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        }
    }

    /// The token the visitor's forms carry.
    public func token(for visitor: String) -> String { signature(of: visitor, after: "csrf:") }

    /// The token as its ASCII bytes, as a cached page's holes take it.
    func tokenBytes(for visitor: String) -> [UInt8] {
        mac.authenticationCode(for: visitor, after: "csrf:").withUnsafeBytes { Base64URL.encodedBytes($0) }
    }

    /// Whether `token` was issued for `visitor`; compared in constant time.
    public func isValid(_ token: String?, for visitor: String?) -> Bool {
        guard let visitor else { return false }
        return isValidSignature(token, of: visitor, after: "csrf:")
    }

    /// An HMAC of `prefix` + `message` under the secret, URL-safe base64.
    func signature(of message: String, after prefix: StaticString = "") -> String {
        mac.authenticationCode(for: message, after: prefix).withUnsafeBytes { Base64URL.encode($0) }
    }

    /// Whether `signature` signs `prefix` + `message`; compared in constant time.
    func isValidSignature(_ signature: String?, of message: String, after prefix: StaticString = "") -> Bool {
        guard let signature, let given = Data(base64URLEncoded: signature) else { return false }
        let expected = mac.authenticationCode(for: message, after: prefix)
        return given.count == SHA256.byteCount && zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// URL-safe base64 without padding (RFC 4648 §5), written straight into a string's or array's storage.
enum Base64URL {
    static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { encode(bytes, into: $0) }
    }

    static func encodedBytes(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { $1 = encode(bytes, into: $0) }
    }

    /// Writes the encoding of `bytes` into `out` (room for `(count * 4 + 2) / 3`); returns its length.
    private static func encode(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var written = 0
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let chunk = UInt32(bytes[index]) << 16
                | (remaining > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                | (remaining > 2 ? UInt32(bytes[index + 2]) : 0)
            out[written] = alphabet[Int(chunk >> 18 & 63)]
            out[written + 1] = alphabet[Int(chunk >> 12 & 63)]
            written += 2
            if remaining > 1 { out[written] = alphabet[Int(chunk >> 6 & 63)]; written += 1 }
            if remaining > 2 { out[written] = alphabet[Int(chunk & 63)]; written += 1 }
            index += 3
        }
        return written
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}

extension Data {
    init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}

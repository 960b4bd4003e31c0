import Crypto
import Foundation

/// Stateless CSRF tokens: an HMAC of the visitor id under the server's secret. Any instance
/// started with the same `--secret` accepts a token another one issued; no session store.
public struct CSRFProtection: Sendable {
    /// The key's bytes: `SymmetricKey` is not Sendable, so a key is made from them per use.
    private let keyBytes: [UInt8]

    /// `secret` from `--secret`; nil generates one for this process.
    public init(secret: String?) {
        if let secret {
            keyBytes = Array(SHA256.hash(data: Data(secret.utf8)))
        } else {
            keyBytes = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        }
    }

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// The token the visitor's forms carry.
    public func token(for visitor: String) -> String { signature(of: "csrf:" + visitor) }

    /// Whether `token` was issued for `visitor`; compared in constant time.
    public func isValid(_ token: String?, for visitor: String?) -> Bool {
        guard let visitor else { return false }
        return isValidSignature(token, of: "csrf:" + visitor)
    }

    /// An HMAC of `message` under the secret, URL-safe base64.
    func signature(of message: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)).base64URLEncoded
    }

    /// Whether `signature` signs `message`; compared in constant time.
    func isValidSignature(_ signature: String?, of message: String) -> Bool {
        guard let signature, let mac = Data(base64URLEncoded: signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(message.utf8), using: key)
    }
}

extension Data {
    /// URL-safe base64 without padding, written byte by byte: Foundation's string replacing
    /// showed up in profiles of the home page, which signs a token on every request.
    var base64URLEncoded: String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out = [UInt8]()
        out.reserveCapacity((count * 4 + 2) / 3)
        var index = startIndex
        while index < endIndex {
            let remaining = endIndex - index
            let chunk = (UInt32(self[index]) << 16)
                | (remaining > 1 ? UInt32(self[index + 1]) << 8 : 0)
                | (remaining > 2 ? UInt32(self[index + 2]) : 0)
            out.append(alphabet[Int(chunk >> 18 & 63)])
            out.append(alphabet[Int(chunk >> 12 & 63)])
            if remaining > 1 { out.append(alphabet[Int(chunk >> 6 & 63)]) }
            if remaining > 2 { out.append(alphabet[Int(chunk & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}

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
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}

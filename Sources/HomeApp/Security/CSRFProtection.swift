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
    public func token(for visitor: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(("csrf:" + visitor).utf8), using: key)
        return Data(mac).base64URLEncoded
    }

    /// Whether `token` was issued for `visitor`; compared in constant time.
    public func isValid(_ token: String?, for visitor: String?) -> Bool {
        guard let token, let visitor, let mac = Data(base64URLEncoded: token) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(("csrf:" + visitor).utf8), using: key)
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

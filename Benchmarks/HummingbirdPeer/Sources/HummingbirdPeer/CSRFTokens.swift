import Foundation

/// The per-visitor token on the page, derived per request from the visitor cookie.
///
/// dynamic-home signs "csrf:" + visitor with HMAC-SHA256 and writes it as 43 characters of
/// base64url. Here it is NOT an HMAC: that needs swift-crypto, which this package leaves out to
/// stay Hummingbird + Mustache. Instead four SipHash-1-3 values (Swift's `Hasher`, seeded at
/// random per process) of a random per-process key and the visitor id give 32 bytes, written as
/// the same 43 characters of base64url. It is stable per visitor for the life of the process, as
/// ours is, costs about as little (well under a microsecond next to a render of a few hundred),
/// and the peer never checks it: it only draws the page.
struct CSRFTokens: Sendable {
    private let key = UInt64.random(in: .min ... .max)

    func token(for visitor: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for lane in 0..<4 {
            var hasher = Hasher()
            hasher.combine(key)
            hasher.combine(lane)
            hasher.combine("csrf:")
            hasher.combine(visitor)
            let word = UInt64(bitPattern: Int64(hasher.finalize()))
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// The visitor cookie: 32 lower-case hex digits, as dynamic-home issues it; a new one otherwise.
struct Visitor {
    static let cookieName = "visitor"
    static let lifetime = 365 * 24 * 3600

    let id: String
    let isNew: Bool

    init(cookie: String?) {
        if let cookie, cookie.utf8.count == 32,
           cookie.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) {
            id = cookie
            isNew = false
        } else {
            id = (0..<2).map { _ in
                let hex = String(UInt64.random(in: .min ... .max), radix: 16)
                return String(repeating: "0", count: 16 - hex.count) + hex
            }.joined()
            isNew = true
        }
    }
}

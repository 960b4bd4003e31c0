import CSHA256

/// HMAC-SHA256 (RFC 2104) under one fixed key, with the key's inner and outer pad blocks hashed
/// once: a signature then costs two compressions on the stack, no allocation and no shared
/// state (the home page signs a CSRF token on every request; see `CSHA256`).
struct KeyedHMAC: Sendable {
    static let byteCount = Int(DH_SHA256_DIGEST_LENGTH)

    private let key: dh_hmac_sha256_key

    /// A key of more than 64 bytes is hashed first, as RFC 2104 says. `accelerated: false`
    /// forces the portable code where the CPU has the SHA extensions (for tests).
    init(key: [UInt8], accelerated: Bool = true) {
        var state = dh_hmac_sha256_key()
        key.withUnsafeBytes { dh_hmac_sha256_key_init(&state, $0.baseAddress, $0.count, accelerated ? 1 : 0) }
        self.key = state
    }

    /// Calls `body` with the code of `prefix` followed by `message`; the prefix spares joining
    /// them into a new string.
    func withAuthenticationCode<Result>(
        for message: String, after prefix: StaticString = "", _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        // Read in place (a copy for `withUTF8` costs a retain and a release).
        var code = message.utf8.withContiguousStorageIfAvailable { authenticate($0, after: prefix) } ?? {
            var text = message
            return text.withUTF8 { authenticate($0, after: prefix) }
        }()
        return withUnsafeBytes(of: &code) { body($0) }
    }

    /// Calls `body` with the code of `prefix` followed by `message`'s bytes.
    func withAuthenticationCode<Result>(
        for message: UnsafeBufferPointer<UInt8>, after prefix: StaticString = "", _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        var code = authenticate(message, after: prefix)
        return withUnsafeBytes(of: &code) { body($0) }
    }

    /// The code of `prefix` followed by `message`, returned by value: a closure writing into the
    /// caller's variable paid the runtime's exclusivity checks on it.
    private func authenticate(_ message: UnsafeBufferPointer<UInt8>, after prefix: StaticString) -> (UInt64, UInt64, UInt64, UInt64) {
        var code: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafePointer(to: key) { key in
            withUnsafeMutableBytes(of: &code) { code in
                dh_hmac_sha256(key, prefix.utf8Start, prefix.utf8CodeUnitCount, message.baseAddress, message.count,
                               code.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        return code
    }

    /// The code as an array (for checks and tests; signing on the hot path uses the closure form).
    func authenticationCode(for message: String, after prefix: StaticString = "") -> [UInt8] {
        withAuthenticationCode(for: message, after: prefix) { Array($0) }
    }
}

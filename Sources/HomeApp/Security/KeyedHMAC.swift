import Crypto

/// HMAC-SHA256 (RFC 2104) under one fixed key, with the key's inner and outer pad blocks hashed
/// once: a signature then costs two short hashes instead of setting up the key every time, and
/// the home page signs a CSRF token on every request.
struct KeyedHMAC: @unchecked Sendable {
    // @unchecked: the two states are only ever copied, never updated in place; a copy that is
    // updated gets its own digest context (swift-crypto copies on write).
    private let inner: SHA256
    private let outer: SHA256

    /// `key` of up to 64 bytes is used as is; a longer one is hashed first, as RFC 2104 says.
    init(key: [UInt8]) {
        var block = key.count > SHA256.blockByteCount ? Array(SHA256.hash(data: key)) : key
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        var inner = SHA256(), outer = SHA256()
        inner.update(data: block.map { $0 ^ 0x36 })
        outer.update(data: block.map { $0 ^ 0x5C })
        self.inner = inner
        self.outer = outer
    }

    /// The code of `prefix` followed by `message`; the prefix spares joining them into a new string.
    func authenticationCode(for message: String, after prefix: StaticString = "") -> SHA256Digest {
        var inner = self.inner
        inner.update(bufferPointer: UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
        var text = message
        text.withUTF8 { inner.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        var outer = self.outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }
}

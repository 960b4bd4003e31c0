import CSHA256

/// SHA-256 of a string's UTF-8, through the same C code as the CSRF tokens' HMAC.
enum Hashing {
    static func sha256(_ text: String) -> [UInt8] {
        var hash = dh_sha256()
        dh_sha256_init(&hash, 1)
        var text = text
        text.withUTF8 { dh_sha256_update(&hash, $0.baseAddress, $0.count) }
        return [UInt8](unsafeUninitializedCapacity: Int(DH_SHA256_DIGEST_LENGTH)) { digest, count in
            dh_sha256_final(&hash, digest.baseAddress!)
            count = Int(DH_SHA256_DIGEST_LENGTH)
        }
    }
}

// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) with pre-hashed key pads, for the CSRF token
// that every home page signs: no allocation, and the x86 SHA extensions where the CPU has them.
#ifndef DH_SHA256_H
#define DH_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define DH_SHA256_DIGEST_LENGTH 32
#define DH_SHA256_BLOCK_LENGTH 64

/// A running hash. Copy it by value to fork it (the HMAC key's pads are two of these).
typedef struct {
    uint32_t state[8];
    uint64_t length;
    uint8_t block[DH_SHA256_BLOCK_LENGTH];
    /// Non-zero: compress with the SHA extensions (only set where the CPU has them).
    int accelerated;
} dh_sha256;

/// Starts a hash; `allow_acceleration` 0 forces the portable code (for tests).
void dh_sha256_init(dh_sha256 *hash, int allow_acceleration);
void dh_sha256_update(dh_sha256 *hash, const void *bytes, size_t count);
/// Writes the digest; the hash must be started again before reuse.
void dh_sha256_final(dh_sha256 *hash, uint8_t digest[DH_SHA256_DIGEST_LENGTH]);

/// An HMAC key: the hash states after the inner and outer pad blocks.
typedef struct {
    dh_sha256 inner;
    dh_sha256 outer;
} dh_hmac_sha256_key;

/// Keys of more than 64 bytes are hashed first, as RFC 2104 says.
void dh_hmac_sha256_key_init(dh_hmac_sha256_key *key, const void *bytes, size_t count, int allow_acceleration);
/// The code of `prefix` followed by `message`.
void dh_hmac_sha256(const dh_hmac_sha256_key *key, const void *prefix, size_t prefix_count,
                    const void *message, size_t message_count, uint8_t code[DH_SHA256_DIGEST_LENGTH]);

/// Whether this process compresses with the x86 SHA extensions.
int dh_sha256_has_acceleration(void);

#endif

#include "dh_sha256.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t initial_state[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline uint32_t rotate_right(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_big_endian(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void compress_portable(uint32_t state[8], const uint8_t *blocks, size_t count) {
    for (; count > 0; count--, blocks += DH_SHA256_BLOCK_LENGTH) {
        uint32_t w[64];
        for (int t = 0; t < 16; t++) w[t] = load_big_endian(blocks + 4 * t);
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = rotate_right(w[t - 15], 7) ^ rotate_right(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = rotate_right(w[t - 2], 17) ^ rotate_right(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t t1 = h + (rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25))
                + ((e & f) ^ (~e & g)) + round_constants[t] + w[t];
            uint32_t t2 = (rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22))
                + ((a & b) ^ (a & c) ^ (b & c));
            h = g; g = f; f = e; e = d + t1;
            d = c; c = b; b = a; a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

#if defined(__x86_64__)
// The SHA extensions keep the state as ABEF and CDGH; each sha256rnds2 does two rounds.
__attribute__((target("sha,sse4.1")))
static void compress_accelerated(uint32_t state[8], const uint8_t *blocks, size_t count) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    for (; count > 0; count--, blocks += DH_SHA256_BLOCK_LENGTH) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i w[16];
        for (int i = 0; i < 16; i++) {
            if (i < 4) {
                w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16 * i)), byte_swap);
            } else {
                __m128i sum = _mm_sha256msg1_epu32(w[i - 4], w[i - 3]);
                sum = _mm_add_epi32(sum, _mm_alignr_epi8(w[i - 1], w[i - 2], 4));
                w[i] = _mm_sha256msg2_epu32(sum, w[i - 1]);
            }
            __m128i message = _mm_add_epi32(w[i], _mm_loadu_si128((const __m128i *)&round_constants[4 * i]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }

    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

int dh_sha256_has_acceleration(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3)) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_SHA) != 0;
}
#else
int dh_sha256_has_acceleration(void) { return 0; }
#endif

static void compress(dh_sha256 *hash, const uint8_t *blocks, size_t count) {
#if defined(__x86_64__)
    if (hash->accelerated) {
        compress_accelerated(hash->state, blocks, count);
        return;
    }
#endif
    compress_portable(hash->state, blocks, count);
}

void dh_sha256_init(dh_sha256 *hash, int allow_acceleration) {
    memcpy(hash->state, initial_state, sizeof initial_state);
    hash->length = 0;
    hash->accelerated = allow_acceleration && dh_sha256_has_acceleration();
}

void dh_sha256_update(dh_sha256 *hash, const void *bytes, size_t count) {
    if (count == 0) return;  // `bytes` may then be NULL, which memcpy must not see
    const uint8_t *input = bytes;
    size_t buffered = hash->length % DH_SHA256_BLOCK_LENGTH;
    hash->length += count;
    if (buffered > 0) {
        size_t taken = DH_SHA256_BLOCK_LENGTH - buffered;
        if (taken > count) taken = count;
        memcpy(hash->block + buffered, input, taken);
        input += taken;
        count -= taken;
        if (buffered + taken < DH_SHA256_BLOCK_LENGTH) return;
        compress(hash, hash->block, 1);
    }
    size_t whole = count / DH_SHA256_BLOCK_LENGTH;
    if (whole > 0) compress(hash, input, whole);
    memcpy(hash->block, input + whole * DH_SHA256_BLOCK_LENGTH, count % DH_SHA256_BLOCK_LENGTH);
}

void dh_sha256_final(dh_sha256 *hash, uint8_t digest[DH_SHA256_DIGEST_LENGTH]) {
    uint64_t bits = hash->length * 8;
    size_t buffered = hash->length % DH_SHA256_BLOCK_LENGTH;
    hash->block[buffered++] = 0x80;
    if (buffered > DH_SHA256_BLOCK_LENGTH - 8) {
        memset(hash->block + buffered, 0, DH_SHA256_BLOCK_LENGTH - buffered);
        compress(hash, hash->block, 1);
        buffered = 0;
    }
    memset(hash->block + buffered, 0, DH_SHA256_BLOCK_LENGTH - 8 - buffered);
    for (int i = 0; i < 8; i++) hash->block[DH_SHA256_BLOCK_LENGTH - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(hash, hash->block, 1);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(hash->state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(hash->state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(hash->state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)hash->state[i];
    }
}

void dh_hmac_sha256_key_init(dh_hmac_sha256_key *key, const void *bytes, size_t count, int allow_acceleration) {
    uint8_t block[DH_SHA256_BLOCK_LENGTH] = {0};
    if (count > DH_SHA256_BLOCK_LENGTH) {
        dh_sha256 hash;
        dh_sha256_init(&hash, allow_acceleration);
        dh_sha256_update(&hash, bytes, count);
        dh_sha256_final(&hash, block);
    } else if (count > 0) {
        memcpy(block, bytes, count);
    }
    uint8_t pad[DH_SHA256_BLOCK_LENGTH];
    for (int i = 0; i < DH_SHA256_BLOCK_LENGTH; i++) pad[i] = block[i] ^ 0x36;
    dh_sha256_init(&key->inner, allow_acceleration);
    dh_sha256_update(&key->inner, pad, sizeof pad);
    for (int i = 0; i < DH_SHA256_BLOCK_LENGTH; i++) pad[i] = block[i] ^ 0x5C;
    dh_sha256_init(&key->outer, allow_acceleration);
    dh_sha256_update(&key->outer, pad, sizeof pad);
}

void dh_hmac_sha256(const dh_hmac_sha256_key *key, const void *prefix, size_t prefix_count,
                    const void *message, size_t message_count, uint8_t code[DH_SHA256_DIGEST_LENGTH]) {
    dh_sha256 inner = key->inner;
    dh_sha256_update(&inner, prefix, prefix_count);
    dh_sha256_update(&inner, message, message_count);
    uint8_t inner_digest[DH_SHA256_DIGEST_LENGTH];
    dh_sha256_final(&inner, inner_digest);
    dh_sha256 outer = key->outer;
    dh_sha256_update(&outer, inner_digest, sizeof inner_digest);
    dh_sha256_final(&outer, code);
}

// A request's headers copied in C into one buffer the Swift side owns: one pass and one
// allocation per request, where a Swift callback made and validated two strings for every header.
#ifndef CMICROHTTPD_HEADER_COPY_H
#define CMICROHTTPD_HEADER_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <microhttpd.h>

/// Each header is written as its name's length and its value's length (two bytes each, little
/// endian), then the name and the value. A head fits in the connection's memory pool, far below
/// 64 KiB, so two bytes hold any length.
struct dh_header_copy {
    unsigned char *out;
    size_t capacity;
    size_t used;
    /// Any byte at or above 0x80: only then must the names and values be checked for UTF-8.
    uint64_t high;
    /// The buffer was too small (or a length too large): the copy stopped.
    int overflow;
    /// How many `Cookie` headers, and where the first one's value lies in the copy; where the first
    /// `Accept-Encoding`, `User-Agent` and `Sec-CH-UA-Mobile` values lie (size -1: none). Found in
    /// the copy's pass, so the request is read without a second walk over its headers.
    unsigned int cookies;
    size_t cookie_at, cookie_size;
    size_t accept_encoding_at;
    long accept_encoding_size;
    size_t user_agent_at;
    long user_agent_size;
    size_t mobile_hint_at;
    long mobile_hint_size;
};

/// An empty copy into `out`, nothing found yet.
static inline struct dh_header_copy dh_header_copy_into(unsigned char *out, size_t capacity) {
    return (struct dh_header_copy){.out = out, .capacity = capacity, .accept_encoding_size = -1,
                                   .user_agent_size = -1, .mobile_hint_size = -1};
}

/// ASCII case-insensitive equality of `key` with a lowercase `name` of the same size, 4 to 16
/// bytes: two loads each of up to eight bytes (overlapping), each byte or-ed with 0x20.
static inline int dh_name_is(const char *key, const char *name, size_t size) {
    if (size >= 8) {
        uint64_t a, b, x, y;
        memcpy(&a, key, 8); memcpy(&b, key + size - 8, 8);
        memcpy(&x, name, 8); memcpy(&y, name + size - 8, 8);
        const uint64_t lower = 0x2020202020202020ULL;
        return ((a | lower) == x) & ((b | lower) == y);
    }
    uint32_t a, b, x, y;
    memcpy(&a, key, 4); memcpy(&b, key + size - 4, 4);
    memcpy(&x, name, 4); memcpy(&y, name + size - 4, 4);
    return ((a | 0x20202020U) == x) & ((b | 0x20202020U) == y);
}

static inline uint64_t dh_high_bits(const char *bytes, size_t size) {
    uint64_t high = 0;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        high |= word;
    }
    for (; i < size; i++) high |= (unsigned char)bytes[i];
    return high & 0x8080808080808080ULL;
}

/// Copies `size` bytes: a name or value is short, and a call of `memcpy` cost more than the
/// bytes themselves. Sixteen bytes a step, the last step over the last sixteen (overlapping what
/// was copied already), eight and four the same way below sixteen; `memcpy` for a long one.
static inline void dh_copy_bytes(unsigned char *to, const char *from, size_t size) {
    if (size > 128) {
        memcpy(to, from, size);
    } else if (size >= 16) {
        unsigned char chunk[16];
        for (size_t i = 0; i + 16 < size; i += 16) {
            memcpy(chunk, from + i, 16);
            memcpy(to + i, chunk, 16);
        }
        memcpy(chunk, from + size - 16, 16);
        memcpy(to + size - 16, chunk, 16);
    } else if (size >= 8) {
        uint64_t first, last;
        memcpy(&first, from, 8);
        memcpy(&last, from + size - 8, 8);
        memcpy(to, &first, 8);
        memcpy(to + size - 8, &last, 8);
    } else if (size >= 4) {
        uint32_t first, last;
        memcpy(&first, from, 4);
        memcpy(&last, from + size - 4, 4);
        memcpy(to, &first, 4);
        memcpy(to + size - 4, &last, 4);
    } else {
        for (size_t i = 0; i < size; i++) to[i] = (unsigned char)from[i];
    }
}

/// Notes where a value lies in the copy unless one of that name was noted before (size -1: none yet).
static inline void dh_note_first(size_t *at, long *size, size_t value_at, size_t value_size) {
    if (*size >= 0) return;
    *at = value_at;
    *size = (long)value_size;
}

/// Copies one header; 0 when it does not fit (the copy stops there).
static inline int dh_header_copy_one(struct dh_header_copy *copy, const char *key, size_t key_size,
                                     const char *value, size_t value_size) {
    if (value == NULL) value_size = 0;
    size_t need = 4 + key_size + value_size;
    if (key_size > 0xFFFF || value_size > 0xFFFF || need > copy->capacity - copy->used) {
        copy->overflow = 1;
        return 0;
    }
    unsigned char *at = copy->out + copy->used;
    at[0] = (unsigned char)(key_size & 0xFF);
    at[1] = (unsigned char)(key_size >> 8);
    at[2] = (unsigned char)(value_size & 0xFF);
    at[3] = (unsigned char)(value_size >> 8);
    dh_copy_bytes(at + 4, key, key_size);
    dh_copy_bytes(at + 4 + key_size, value, value_size);
    // Names hold token characters only, so or-ing 0x20 makes no other name equal to these.
    size_t at_value = copy->used + 4 + key_size;
    switch (key_size) {
    case 6:
        if (dh_name_is(key, "cookie", 6) && copy->cookies++ == 0) {
            copy->cookie_at = at_value;
            copy->cookie_size = value_size;
        }
        break;
    case 10:
        if (dh_name_is(key, "user-agent", 10))
            dh_note_first(&copy->user_agent_at, &copy->user_agent_size, at_value, value_size);
        break;
    case 15:
        if (dh_name_is(key, "accept-encoding", 15))
            dh_note_first(&copy->accept_encoding_at, &copy->accept_encoding_size, at_value, value_size);
        break;
    case 16:
        if (dh_name_is(key, "sec-ch-ua-mobile", 16))
            dh_note_first(&copy->mobile_hint_at, &copy->mobile_hint_size, at_value, value_size);
        break;
    }
    copy->used += need;
    return 1;
}

static inline enum MHD_Result dh_header_copy_pair(void *cls, enum MHD_ValueKind kind, const char *key,
                                                  size_t key_size, const char *value, size_t value_size) {
    (void)kind;
    struct dh_header_copy *copy = (struct dh_header_copy *)cls;
    if (key == NULL) return MHD_YES;
    if (!dh_header_copy_one(copy, key, key_size, value, value_size)) return MHD_NO;
    copy->high |= dh_high_bits(key, key_size) | (value != NULL ? dh_high_bits(value, value_size) : 0);
    return MHD_YES;
}

/// Copies every header of `connection` into `out` (see `dh_header_copy`).
static inline struct dh_header_copy dh_copy_headers(struct MHD_Connection *connection, unsigned char *out,
                                                    size_t capacity) {
    struct dh_header_copy copy = dh_header_copy_into(out, capacity);
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, dh_header_copy_pair, &copy);
    return copy;
}

#endif

// A pass over a request's headers in C, with their true lengths: libmicrohttpd 0.9.75 reads a
// header leniently (a name with a space before its colon, a NUL or bare CR inside a value) and
// its NUL-terminated view hides what follows a NUL. Cheap enough for every request: the same
// pass copies the headers for the request (`header_copy.h`).
#ifndef CMICROHTTPD_HEAD_CHECK_H
#define CMICROHTTPD_HEAD_CHECK_H

#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <microhttpd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "header_copy.h"

enum dh_head_problem {
    DH_HEAD_OK = 0,
    DH_HEAD_BAD_NAME,          // empty, or a byte that is not a token character (whitespace, control, ...)
    DH_HEAD_BAD_VALUE,         // NUL, CR, LF or another control byte but tab
    DH_HEAD_BAD_LENGTH,        // Content-Length that is not 1 to 18 digits
    DH_HEAD_REPEATED_LENGTH,   // more than one Content-Length
    DH_HEAD_BAD_CODING,        // Transfer-Encoding other than exactly one "chunked"
    DH_HEAD_HIDDEN_BYTES,      // bytes after a value that the value does not show (after a NUL, a folded line)
    DH_HEAD_REPEATED_HOST,     // more than one Host
};

struct dh_head_check {
    enum dh_head_problem problem;
    unsigned int content_lengths;
    unsigned int transfer_encodings;
    unsigned int hosts;
    /// Bytes of the headers as received, about: names, values and ": " and CRLF for each.
    size_t bytes;
    /// The first offending header's name (cut, NUL-terminated), for the error page.
    char name[48];
    /// Where the last value read ended, and its name; the most bytes two headers may lie apart.
    const char *previous_end;
    const char *previous_key;
    size_t previous_key_size;
    size_t span;
};

/// libmicrohttpd 0.9.75 parses the head in place: a header's name follows the previous value
/// with only its line end (made NULs) and whitespace between. Anything else there was hidden
/// from the value: the text after a NUL, or a folded continuation line.
static inline int dh_only_line_ends(const char *from, const char *to, size_t span) {
    if (to < from || (size_t)(to - from) > span) return 0;
    for (const char *p = from; p < to; p++) {
        char c = *p;
        if (c != 0 && c != '\r' && c != '\n' && c != ' ' && c != '\t') return 0;
    }
    return 1;
}

/// The token characters of RFC 9110 §5.6.2 (letters, digits and ``!#$%&'*+-.^_`|~``): one byte
/// each, so a name is checked with a load and an `and` a byte.
static const unsigned char dh_token_table[256] = {
    ['!'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['&'] = 1, ['\''] = 1, ['*'] = 1, ['+'] = 1, ['-'] = 1, ['.'] = 1,
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
    ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
    ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['^'] = 1, ['_'] = 1, ['`'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1,
    ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1,
    ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['|'] = 1, ['~'] = 1,
};

static inline int dh_is_token_char(unsigned char c) {
    return dh_token_table[c];
}

#if defined(__SSE2__)
/// The `size` bytes at `bytes` (4 to 16) in one vector: two loads that overlap when the size is
/// not a whole vector or half of one, the rest of the vector repeating them. Each byte of the
/// vector is one of the range's, and each of the range's bytes is in it.
static inline __m128i dh_load_range(const char *bytes, size_t size) {
    if (size >= 16) return _mm_loadu_si128((const __m128i *)bytes);
    if (size >= 8) {
        long long first, last;
        memcpy(&first, bytes, 8);
        memcpy(&last, bytes + size - 8, 8);
        return _mm_set_epi64x(last, first);
    }
    int first, last;
    memcpy(&first, bytes, 4);
    memcpy(&last, bytes + size - 4, 4);
    return _mm_set_epi32(last, first, last, first);
}

/// Bytes of `v` from `low` to `high`, as unsigned bytes.
static inline __m128i dh_in_range(__m128i v, char low, char high) {
    __m128i offset = _mm_sub_epi8(v, _mm_set1_epi8(low));
    return _mm_cmpeq_epi8(_mm_min_epu8(offset, _mm_set1_epi8((char)(high - low))), offset);
}

/// Bytes below 0x20 but tab, and DEL.
static inline int dh_vector_has_control(__m128i v) {
    __m128i low = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F));
    __m128i bad = _mm_or_si128(_mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), low),
                               _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
    return _mm_movemask_epi8(bad) != 0;
}
#endif

static inline int dh_bytes_have_control(const char *bytes, size_t size) {
    for (size_t j = 0; j < size; j++) {
        unsigned char c = (unsigned char)bytes[j];
        if ((c < 0x20 && c != '\t') || c == 0x7F) return 1;
    }
    return 0;
}

/// Whether a value holds a control byte other than tab (or DEL), sixteen bytes a step where the
/// processor has vectors of them (the last step over the value's last sixteen, some seen twice;
/// a shorter value in one step of two overlapping loads), else eight the same way with words.
/// Its bytes at or above 0x80 are or-ed into `high` on the way (any bit of them: only whether
/// there is one matters).
static inline int dh_value_has_control(const char *value, size_t size, unsigned long long *high) {
#if defined(__SSE2__)
    if (size >= 4) {
        for (size_t i = 0;; i += 16) {
            if (size >= 16 && i + 16 > size) i = size - 16;
            __m128i v = dh_load_range(value + i, size - i);
            *high |= (unsigned)_mm_movemask_epi8(v);
            if (dh_vector_has_control(v)) return 1;
            if (i + 16 >= size) return 0;
        }
    }
#else
    const unsigned long long ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    if (size >= 4) {
        for (size_t i = 0;; i += 8) {
            // The last step starts eight before the end (or covers a short value with two of four).
            if (size >= 8 && i + 8 > size) i = size - 8;
            unsigned long long word;
            if (size >= 8) {
                memcpy(&word, value + i, 8);
            } else {
                unsigned int first, last;
                memcpy(&first, value, 4);
                memcpy(&last, value + size - 4, 4);
                word = (unsigned long long)first | (unsigned long long)last << 32;
            }
            *high |= word & highs;
            unsigned long long below = (word - ones * 0x20) & ~word;
            unsigned long long del = word ^ (ones * 0x7F);
            if (((below | ((del - ones) & ~del)) & highs) != 0
                && dh_bytes_have_control(value + i, size >= 8 ? 8 : size)) return 1;
            if (i + 8 >= size) return 0;
        }
    }
#endif
    for (size_t i = 0; i < size; i++) *high |= (unsigned char)value[i] & 0x80;
    return dh_bytes_have_control(value, size);
}

/// Whether every byte of a name is a token character: letters, digits and `-` (nearly every
/// name has only those) sixteen at a time where the processor has vectors, any other name
/// through the table a byte at a time.
static inline int dh_is_token(const char *key, size_t size) {
#if defined(__SSE2__)
    if (size >= 4) {
        int plain = 1;
        for (size_t i = 0; plain; i += 16) {
            if (size >= 16 && i + 16 > size) i = size - 16;
            __m128i v = dh_load_range(key + i, size - i);
            __m128i letters = dh_in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z');
            __m128i ok = _mm_or_si128(_mm_or_si128(letters, dh_in_range(v, '0', '9')), _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
            plain = _mm_movemask_epi8(ok) == 0xFFFF;
            if (i + 16 >= size) break;
        }
        if (plain) return 1;
    }
#endif
    int token = 1;
    for (size_t i = 0; i < size; i++) token &= dh_is_token_char((unsigned char)key[i]);
    return token;
}

static inline void dh_head_flag(struct dh_head_check *check, enum dh_head_problem problem,
                                const char *key, size_t key_size) {
    if (check->problem != DH_HEAD_OK) return;
    check->problem = problem;
    size_t n = key_size < sizeof(check->name) - 1 ? key_size : sizeof(check->name) - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)key[i];
        check->name[i] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
    }
    check->name[n] = 0;
}

/// Checks one header; the high bits of its value are or-ed into `high` (a name with one is refused).
static inline void dh_head_check_one(struct dh_head_check *check, const char *key, size_t key_size,
                                     const char *value, size_t value_size, unsigned long long *high) {
    check->bytes += key_size + value_size + 4;
    if (check->previous_end != NULL && !dh_only_line_ends(check->previous_end, key, check->span))
        dh_head_flag(check, DH_HEAD_HIDDEN_BYTES, check->previous_key, check->previous_key_size);
    check->previous_end = value != NULL ? value + value_size : key + key_size;
    check->previous_key = key;
    check->previous_key_size = key_size;
    if (key_size == 0) dh_head_flag(check, DH_HEAD_BAD_NAME, key, key_size);
    if (!dh_is_token(key, key_size)) dh_head_flag(check, DH_HEAD_BAD_NAME, key, key_size);
    if (value != NULL && dh_value_has_control(value, value_size, high)) dh_head_flag(check, DH_HEAD_BAD_VALUE, key, key_size);
    if (key_size == 14 && strncasecmp(key, "Content-Length", 14) == 0) {
        check->content_lengths += 1;
        if (check->content_lengths > 1) dh_head_flag(check, DH_HEAD_REPEATED_LENGTH, key, key_size);
        int digits = value != NULL && value_size > 0 && value_size <= 18;
        for (size_t i = 0; digits && i < value_size; i++) digits = value[i] >= '0' && value[i] <= '9';
        if (!digits) dh_head_flag(check, DH_HEAD_BAD_LENGTH, key, key_size);
    } else if (key_size == 17 && strncasecmp(key, "Transfer-Encoding", 17) == 0) {
        check->transfer_encodings += 1;
        if (check->transfer_encodings > 1 || value == NULL || value_size != 7 || strncasecmp(value, "chunked", 7) != 0)
            dh_head_flag(check, DH_HEAD_BAD_CODING, key, key_size);
    } else if (key_size == 4 && strncasecmp(key, "Host", 4) == 0) {
        check->hosts += 1;
        if (check->hosts > 1) dh_head_flag(check, DH_HEAD_REPEATED_HOST, key, key_size);
    }
}

/// After the last header: nothing but line ends may follow it up to the head's end. `method` is
/// the request's method as the access handler got it: in 0.9.75 it points at the start of the
/// head in the read buffer, so with the head's size it tells where the last header must end.
static inline void dh_head_check_end(struct dh_head_check *check, const char *method, size_t header_size) {
    if (check->previous_end != NULL && header_size > 0 && method != NULL
        && method < check->previous_end && (size_t)(check->previous_end - method) < check->span) {
        const char *end = method + header_size;
        if (end >= check->previous_end && !dh_only_line_ends(check->previous_end, end, check->span))
            dh_head_flag(check, DH_HEAD_HIDDEN_BYTES, check->previous_key, check->previous_key_size);
    }
}

/// The check and the copy of a request's headers (`dh_header_copy`), made in one pass.
struct dh_head_read {
    struct dh_head_check check;
    struct dh_header_copy copy;
};

static inline enum MHD_Result dh_head_read_pair(void *cls, enum MHD_ValueKind kind, const char *key,
                                                size_t key_size, const char *value, size_t value_size) {
    (void)kind;
    struct dh_head_read *read = (struct dh_head_read *)cls;
    if (key == NULL) return MHD_YES;
    unsigned long long high = 0;
    dh_head_check_one(&read->check, key, key_size, value, value_size, &high);
    // Names are checked to be tokens: only the values' high bits matter to the copy.
    read->copy.high |= high;
    // The check goes on past a full buffer; the copy is then made again, larger (`dh_copy_headers`).
    if (!read->copy.overflow) dh_header_copy_one(&read->copy, key, key_size, value, value_size);
    return MHD_YES;
}

/// Checks every header of `connection` and copies them into `out` (up to `capacity` bytes):
/// the first problem found with the counts, and the copy. `header_size` is the head's size
/// (`dh_request_header_size`), `span` the connection memory limit: no two parts of a head lie
/// further apart.
static inline struct dh_head_read dh_read_head(struct MHD_Connection *connection, const char *method,
                                               size_t header_size, size_t span,
                                               unsigned char *out, size_t capacity) {
    struct dh_head_read read;
    memset(&read.check, 0, sizeof(read.check));
    read.check.span = span;
    read.copy = dh_header_copy_into(out, capacity);
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, dh_head_read_pair, &read);
    dh_head_check_end(&read.check, method, header_size);
    return read;
}

/// The bytes of the request line and headers as received; 0 when libmicrohttpd cannot say.
static inline size_t dh_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info != NULL ? info->header_size : 0;
}

#endif

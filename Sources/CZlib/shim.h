// zlib, for gzip: closed report segments and compressed responses.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// `deflateInit2` is a macro; Swift cannot call it.
static inline int dh_deflate_init2(z_streamp stream, int level, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}

/// `inflateInit2` is a macro; Swift cannot call it.
static inline int dh_inflate_init2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif

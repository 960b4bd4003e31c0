// Brotli, for compressed responses.
#ifndef CBROTLI_SHIM_H
#define CBROTLI_SHIM_H

#include <brotli/encode.h>
#include <brotli/decode.h>
// malloc_trim, which Swift's Glibc module leaves out: a page's compressed forms take megabytes of
// heap for a moment, which glibc would otherwise keep resident (SplicedBytes).
#if defined(__linux__)
#include <malloc.h>
#endif

#endif

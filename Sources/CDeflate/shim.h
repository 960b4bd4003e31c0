// libdeflate, for reading a closed report segment's gzip members: a member is inflated whole into
// a buffer of known size, which libdeflate does two to three times as fast as zlib's stream.
#ifndef CDEFLATE_SHIM_H
#define CDEFLATE_SHIM_H

#include <libdeflate.h>
// malloc_trim, which Swift's Glibc module leaves out: the report store gives back the heap its
// rollups were decoded in once they are folded (SegmentDirectory).
#if defined(__linux__)
#include <malloc.h>
#endif

#endif

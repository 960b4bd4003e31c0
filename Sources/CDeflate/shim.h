// libdeflate, for reading a closed report segment's gzip members: a member is inflated whole into
// a buffer of known size, which libdeflate does two to three times as fast as zlib's stream.
#ifndef CDEFLATE_SHIM_H
#define CDEFLATE_SHIM_H

#include <libdeflate.h>

#endif

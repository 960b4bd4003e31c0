import Glibc

/// Compression per response, at a fast level, for bodies that are not cached: error pages,
/// search results, settings, and a cached page in the moment before its compressed form is ready.
enum OnTheFly {
    /// gzip level 1 and brotli quality 1: several times faster than the defaults for a few
    /// percent more bytes, on pages that are made per request anyway.
    static let gzipLevel: Int32 = 1
    static let brotliQuality: Int32 = 1

    /// `body` compressed into a `malloc`ed buffer (freed by the response); nil when it is not a
    /// body in memory or would not get smaller.
    static func compress(_ body: ResponseBody, _ coding: ContentCoding) -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        switch body {
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { compress($0, coding) }
        case .spliced(let spliced):
            let count = spliced.count
            guard let buffer = malloc(max(count, 1)) else { return nil }
            defer { free(buffer) }
            let whole = UnsafeMutableRawBufferPointer(start: buffer, count: count)
            spliced.write(into: whole)
            return compress(UnsafeRawBufferPointer(whole), coding)
        default:
            return nil
        }
    }

    static func compress(_ bytes: UnsafeRawBufferPointer, _ coding: ContentCoding) -> (bytes: UnsafeMutableRawPointer, count: Int)? {
        guard bytes.count > 0, let output = malloc(bytes.count) else { return nil }
        let count: Int?
        switch coding {
        case .identity: count = nil
        case .gzip: count = Gzip.compress(bytes, level: gzipLevel, into: output, capacity: bytes.count)
        case .brotli: count = BrotliEncoder.compress(bytes, quality: brotliQuality, into: output, capacity: bytes.count)
        }
        guard let count else {
            free(output)
            return nil
        }
        return (output, count)
    }
}

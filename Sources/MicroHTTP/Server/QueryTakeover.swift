import Glibc

/// Keeps the query away from libmicrohttpd, which the server decodes itself (`QueryParameters.decode`).
///
/// libmicrohttpd 0.9.75 stores every query argument in the connection's memory pool while it
/// parses the request line. When the pool runs out there (about 250 empty arguments in 16 KiB,
/// fewer with a long target or large headers) it queues a 431, then overwrites the state that
/// would send it: the client hears nothing until the connection timeout. The URI callback runs
/// just before that parsing, on the request line in libmicrohttpd's read buffer.
enum QueryTakeover {
    /// Ends libmicrohttpd's copy of the query right after its `?`, so it stores no arguments, and
    /// returns how many the query has, as `QueryParameters.decode` counts them. Allocates nothing.
    static func take(_ uri: UnsafePointer<CChar>) -> Int {
        guard let question = strchr(uri, Int32(UInt8(ascii: "?"))) else { return 0 }
        // `uri` is libmicrohttpd's writable read buffer (it writes a NUL over the `?` itself next).
        let query = UnsafeMutableRawPointer(question + 1).assumingMemoryBound(to: UInt8.self)
        // Its length and its separators found with the C library's word-wide scans, not a byte at a time.
        let count = strlen(question + 1)
        guard count > 0 else { return 0 }
        let last = query[count - 1]
        var separators = 0
        var from = UnsafeMutableRawPointer(query)
        var left = count
        while let found = memchr(from, Int32(UInt8(ascii: "&")), left) {
            separators += 1
            left -= from.distance(to: found) + 1
            from = found + 1
        }
        query[0] = 0
        // A final `&` adds no argument.
        return separators + (last == UInt8(ascii: "&") ? 0 : 1)
    }
}

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
        var separators = 0
        var last: UInt8 = 0
        var index = 0
        while query[index] != 0 {
            last = query[index]
            if last == UInt8(ascii: "&") { separators += 1 }
            index += 1
        }
        query[0] = 0
        // A final `&` adds no argument; an empty query has none.
        return index == 0 ? 0 : separators + (last == UInt8(ascii: "&") ? 0 : 1)
    }
}

/// A body produced on demand, chunk by chunk, while libmicrohttpd sends it: a large file read
/// a piece at a time, never whole into memory. Chunks are pulled on a server thread.
public struct ChunkedBody: Sendable {
    /// The next bytes (ideally at most the given count; more are sent on later calls), or nil at the end.
    let next: @Sendable (Int) -> [UInt8]?
    /// Called once when the response is done or the client went away.
    let close: @Sendable () -> Void

    public init(next: @escaping @Sendable (_ maxBytes: Int) -> [UInt8]?, close: @escaping @Sendable () -> Void = {}) {
        self.next = next
        self.close = close
    }
}

/// Boxes a `ChunkedBody` for libmicrohttpd's `void *`.
final class ChunkedBodyBox {
    let body: ChunkedBody
    /// What did not fit in libmicrohttpd's buffer of a chunk longer than asked: sent first on the
    /// next call, never dropped. libmicrohttpd calls one response's reader one call at a time.
    var pending: ArraySlice<UInt8> = []
    init(_ body: ChunkedBody) { self.body = body }
}

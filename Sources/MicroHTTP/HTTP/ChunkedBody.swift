/// A body produced on demand, chunk by chunk, while libmicrohttpd sends it: a large file read
/// a piece at a time, never whole into memory. Chunks are pulled on a server thread.
public struct ChunkedBody: Sendable {
    /// The next bytes (ideally at most the given count; more are sent on later calls), or nil at the end.
    let next: @Sendable (Int) -> [UInt8]?
    /// Called once when the response is done or the client went away.
    let close: @Sendable () -> Void
    /// Asked once `next` returns nil: true when the body was cut short, so the connection is
    /// closed without the terminating zero chunk and the client sees an incomplete answer.
    let failed: @Sendable () -> Bool

    public init(next: @escaping @Sendable (_ maxBytes: Int) -> [UInt8]?, close: @escaping @Sendable () -> Void = {},
                failed: @escaping @Sendable () -> Bool = { false }) {
        self.next = next
        self.close = close
        self.failed = failed
    }
}

/// Boxes a `ChunkedBody` for libmicrohttpd's `void *`.
final class ChunkedBodyBox {
    let body: ChunkedBody
    /// What did not fit in libmicrohttpd's buffer of a chunk longer than asked: sent first on the
    /// next call, never dropped. libmicrohttpd calls one response's reader one call at a time.
    var pending: ArraySlice<UInt8> = []
    /// The connection's socket: shut down when the body fails, since libmicrohttpd 0.9.75 only
    /// closes a connection whose reader failed at its next wake-up (seconds later when idle).
    let descriptor: Int32
    init(_ body: ChunkedBody, descriptor: Int32) {
        self.body = body
        self.descriptor = descriptor
    }
}

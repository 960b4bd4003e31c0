import CMicroHTTPD
import Glibc

extension ResponseStream {
    /// POLLRDHUP (Linux): Glibc exports it only with _GNU_SOURCE.
    static let readHangUp: Int16 = 0x2000

    /// Whether the client closed its side of the connection (or it failed). Under the stream's
    /// lock: libmicrohttpd frees the stream (taking the same lock) before it closes the socket,
    /// so the descriptor polled is still this connection's.
    func peerHasLeft() -> Bool {
        state.withLock { state in
            guard !state.closed, let address = state.connection,
                  case let fd = dh_connection_fd(OpaquePointer(bitPattern: address)!), fd >= 0 else { return false }
            var entry = pollfd(fd: fd, events: Self.readHangUp, revents: 0)
            guard poll(&entry, 1, 0) > 0 else { return false }
            return entry.revents & (Self.readHangUp | Int16(POLLHUP | POLLERR)) != 0
        }
    }
}

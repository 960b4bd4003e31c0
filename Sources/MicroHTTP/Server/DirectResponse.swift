import Glibc

/// An error response written straight to the connection's socket, which is then shut for writing.
///
/// For the cases where libmicrohttpd 0.9.75 cannot answer well itself: a request head so large
/// that no pool memory is left for the response's head (it would close without a word), a
/// malformed `Content-Length`, whose 400 it writes with its head twice, a chunk-size line longer
/// than its read buffer (its own 500), and a chunked body past the limit (it takes no response
/// while a body arrives). The answer goes out before libmicrohttpd writes anything for the
/// request, and after the shutdown whatever it writes fails and it closes the connection.
enum DirectResponse {
    /// Writes `response` (a body in memory; its head only for `HEAD`) with `Connection: close`;
    /// returns whether all of it was taken by the socket. A fresh connection's send buffer holds
    /// an error page many times over.
    @discardableResult
    static func send(_ response: Response, id: String, headOnly: Bool = false, on descriptor: Int32) -> Bool {
        guard descriptor >= 0 else { return false }
        var bytes = serialize(response, id: id)
        if headOnly, case .bytes(let body) = response.body { bytes.removeLast(body.count) }
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(descriptor, Int32(SHUT_WR))
        return sent == bytes.count
    }

    static func serialize(_ response: Response, id: String) -> [UInt8] {
        let body: [UInt8]
        if case .bytes(let bytes) = response.body { body = bytes } else { body = [] }
        var head = "HTTP/1.1 \(response.status.rawValue) \(response.status.reasonPhrase)\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.isHTML {
            for (name, value) in ServerCore.htmlSecurityHeaders { head += "\(name): \(value)\r\n" }
        }
        head += "X-Content-Type-Options: nosniff\r\n\(ServerCore.requestIDHeader): \(id)\r\n"
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}

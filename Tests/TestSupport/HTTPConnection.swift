import Glibc

/// One TCP connection to a test server that speaks HTTP/1.1 by hand, so tests control every
/// byte they send (raw targets, broken encodings, slow bodies) and can reuse the connection.
public final class HTTPConnection {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// The receive timeout ran out: the peer neither answered nor closed.
        public var timedOut = false
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// `source` binds the client's own address first (another loopback address, e.g. 127.0.0.2).
    /// `receiveBufferBytes` shrinks the socket's receive buffer, so a client that stops reading
    /// pushes back on the server sooner.
    public init(port: UInt16, host: String = "127.0.0.1", timeoutSeconds: Int = 15, source: String? = nil,
                receiveBufferBytes: Int32? = nil) throws {
        // The descriptor is stored only once connected: a throw after every stored property is set
        // still runs deinit, which would close it a second time, and by then the number may belong
        // to another test's server (libmicrohttpd then aborts: "Close socket failed").
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A server that stops reading fails a send after as long, rather than blocking it forever.
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var bytes = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw Failure(description: "cannot bind to \(source)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "cannot connect to \(host):\(port)")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send failed: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// Reads one response; `method` tells whether a body follows (not after HEAD).
    public func readResponse(method: String = "GET") throws -> HTTPResponse {
        let headerEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line: \(head.prefix(80))")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingPrefix(" ").description)
        }
        let response = { (body: [UInt8]) in HTTPResponse(status: status, headers: headers, body: body) }
        func value(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }
        if method == "HEAD" || status == 304 || status == 204 { return response([]) }
        if let length = value("content-length").flatMap({ Int($0) }) {
            return response(try take(length))
        }
        if value("transfer-encoding")?.lowercased() == "chunked" { return response(try readChunked()) }
        while try fill() > 0 {}
        defer { buffer.removeAll() }
        return response(buffer)
    }

    /// Sends a request and reads its response.
    public func request(_ method: String, _ target: String, headers: [(String, String)] = [],
                        body: [UInt8] = []) throws -> HTTPResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
        return try readResponse(method: method)
    }

    /// Half-closes the connection: the server reads end-of-file after what was sent.
    public func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Every byte the server sends until it closes the connection (or the timeout passes).
    public func readToEnd() -> [UInt8] {
        while (try? fill()) ?? 0 > 0 {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Whether the server has closed the connection (reads EOF within the timeout).
    public func isClosedByPeer() -> Bool { (try? fill()) == 0 }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for start in searchFrom...(buffer.count - marker.count)
                where buffer[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard try fill() > 0 else { throw Failure(description: "connection closed before \(marker)") }
        }
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() > 0 else { throw Failure(description: "connection closed in a body") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while let chunk = try readChunk() { body += chunk }
        return body
    }

    /// Reads the status line and headers of a streamed (chunked) response, leaving the body.
    public func readStreamHead() throws -> HTTPResponse {
        let headerEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        let lines = head.split(separator: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingPrefix(" ").description)
        }
        return HTTPResponse(status: status, headers: headers, body: [])
    }

    /// The next chunk of a chunked body; nil after the last one.
    public func readChunk() throws -> [UInt8]? {
        let end = try readUntil([13, 10])
        let size = Int(String(decoding: buffer[..<end], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
        buffer.removeFirst(end + 2)
        let chunk = try take(size)
        _ = try take(2)
        return size == 0 ? nil : chunk
    }

    @discardableResult
    private func fill() throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            let code = errno
            throw Failure(description: "recv failed: \(String(cString: strerror(code)))",
                          timedOut: code == EAGAIN || code == EWOULDBLOCK)
        }
        buffer += chunk[..<count]
        return count
    }
}

import Foundation
import Testing
import TestSupport

/// Chunked request bodies and HTTP/1.0 framing against the real `dynamic-home`, byte by byte: a
/// chunk-size line too long for libmicrohttpd's buffer, a body that never ends, and
/// `Transfer-Encoding` on HTTP/1.0.
@Suite struct RequestBodyFramingTests {
    /// A short connection timeout: a server that reads a body to its end is stopped by it.
    static let arguments = ["--port", "0", "--connection-timeout", "3"]

    static let chunkedPost = "POST /healthz HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"

    /// The whole response until the server closes: its status lines, and whether the one response's
    /// body is exactly as long as its `Content-Length`.
    static func wholeResponse(_ connection: HTTPConnection) -> (statusLines: [String], body: String, lengthMatches: Bool) {
        let response = String(decoding: connection.readToEnd(), as: UTF8.self)
        let parts = response.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let body = parts.dropFirst().joined(separator: "\r\n\r\n")
        let length = head.first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst(15).trimmingPrefix(" ")) }
        // Each status line up to its end; a second answer right after a body begins no line of its own.
        let statusLines = response.components(separatedBy: "HTTP/1.1 ").dropFirst()
            .map { "HTTP/1.1 " + ($0.components(separatedBy: "\r\n").first ?? "") }
        return (statusLines, body, length == body.utf8.count)
    }

    /// libmicrohttpd 0.9.75 keeps a chunk-size line in its read buffer until the line ends; one
    /// longer than the buffer got its own 500. The server answers 400 itself, once.
    @Test(arguments: [
        ("a chunk extension of 9 KB", "5;" + String(repeating: "e", count: 9_000)),
        ("a chunk size of 9 KB of zeros", String(repeating: "0", count: 9_000) + "5"),
        ("a chunk extension of 9 KB after a first chunk", "5\r\nhello\r\n5;" + String(repeating: "e", count: 9_000)),
    ])
    func aChunkSizeLineTooLongForTheBufferGetsOne400(_ name: String, _ body: String) throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: 10)
        // The server may answer and close before it has read everything; its response is still there.
        try? connection.send(Self.chunkedPost + body + "\r\nhello\r\n0\r\n\r\n")
        let response = Self.wholeResponse(connection)
        #expect(response.statusLines == ["HTTP/1.1 400 Bad Request"], "\(name)")
        #expect(response.lengthMatches, "\(name)")
        #expect(response.body.contains("chunk-size line"), "\(name)")
        #expect(try server.client.get("/healthz").status == 200)
        // The log reaches the test through a pipe, a moment after the response.
        try eventually("\(name): the refusal logged", timeout: 10) { server.log.contains("bad framing") }
        #expect(server.log.contains("chunk-size line"), "\(name)")
    }

    /// Nothing tells which of a thread's chunked bodies libmicrohttpd refuses a line of: with
    /// another arriving on the same (only) thread, the server answers neither, libmicrohttpd's
    /// answer goes out, and the other body is never answered in its place.
    @Test func aLongChunkLineNeverAnswersAnotherChunkedBodyOnItsThread() throws {
        let server = try ServerProcess(arguments: Self.arguments + ["--threads", "1"])
        let other = try HTTPConnection(port: server.port, timeoutSeconds: 10)
        try other.send(Self.chunkedPost + "5\r\nhello\r\n")
        let long = try HTTPConnection(port: server.port, timeoutSeconds: 10)
        try? long.send(Self.chunkedPost + "5;" + String(repeating: "e", count: 9_000) + "\r\nhello\r\n0\r\n\r\n")
        let response = Self.wholeResponse(long)
        // 400 if the other body's head was not in yet, else libmicrohttpd's 500.
        #expect(response.statusLines == ["HTTP/1.1 400 Bad Request"] || response.statusLines == ["HTTP/1.1 500 Internal Server Error"],
                "\(response.statusLines)")
        try other.send("0\r\n\r\n")
        #expect(try other.readResponse().status == 405)
    }

    /// A chunked body past the body limit is refused the moment it passes it: 413, and the
    /// connection closed while the client is still sending, not read to its end (it had none).
    @Test func anEndlessChunkedBodyIsRefusedAtTheLimit() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: 10)
        try connection.send(Self.chunkedPost)
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x61, count: 0x10000) + Array("\r\n".utf8)
        // Far past the 1 MiB limit and what loopback socket buffers hold; the server's close stops it sooner.
        let most = 256 << 20
        var sent = 0
        while sent < most {
            do { try connection.send(chunk) } catch { break }
            sent += chunk.count
        }
        #expect(sent < most, "the server read \(sent) bytes of a body past its limit")
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains("larger than the 1024 KiB"))
        #expect(try server.client.get("/healthz").status == 200)
    }

    /// A finite body over the limit gets the same 413, with the connection closed after it.
    @Test func aChunkedBodyJustOverTheLimitGets413AndTheConnectionCloses() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: 10)
        let body = [UInt8](repeating: 0x61, count: 1024 * 1024 + 1)
        let bytes = Array((Self.chunkedPost + String(body.count, radix: 16) + "\r\n").utf8) + body
            + Array("\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        try? connection.send(bytes)
        let response = Self.wholeResponse(connection)
        #expect(response.statusLines == ["HTTP/1.1 413 Content Too Large"])
        #expect(response.lengthMatches)
    }

    /// RFC 9112 §6.1: `Transfer-Encoding` in an HTTP/1.0 request is faulty framing; the server
    /// answers 400 and closes, so what followed on the connection is never read as a request.
    @Test(arguments: ["POST", "PUT"])
    func transferEncodingOnHTTP10IsRefusedAndTheConnectionClosed(_ method: String) throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: 10)
        try? connection.send("\(method) /healthz HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            + "GET /healthz HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
        let response = Self.wholeResponse(connection)
        #expect(response.statusLines.count == 1, "\(response.statusLines)")
        #expect(response.statusLines.first?.hasPrefix("HTTP/1.1 400 ") == true, "\(response.statusLines)")
        #expect(response.body.contains("HTTP/1.0"))
        #expect(response.lengthMatches)
    }

    /// HTTP/1.0 with a length keeps working: only `Transfer-Encoding` makes its framing faulty.
    @Test func http10WithContentLengthIsStillServed() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: 10)
        try connection.send("GET /healthz HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        try connection.send("POST /healthz HTTP/1.0\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello")
        #expect(try connection.readResponse().status == 405)
    }
}

import Testing
import TestSupport
@testable import MicroHTTP

/// Requests whose body framing is ambiguous are refused before their body is read, and the
/// connection is closed, so nothing of the body can be read as a next request.
@Suite struct RequestFramingTests {
    let server: TestServer

    init() throws { server = try TestServer(router: ServerTests.echoRouter()) }

    @Test(arguments: [
        ("differing Content-Lengths", "POST /raw", "Content-Length: 5\r\nContent-Length: 6", "hello!", "more than one Content-Length"),
        // Equal ones too: a proxy that reads the first of a list and a server that reads the last may differ.
        ("equal Content-Lengths", "POST /raw", "Content-Length: 2\r\nContent-Length: 2", "hi", "more than one Content-Length"),
        ("a space before the colon", "POST /raw", "Content-Length : 2", "hi", "a space before the colon"),
        ("Content-Length and chunked", "POST /raw", "Content-Length: 5\r\nTransfer-Encoding: chunked",
         "5\r\nhello\r\n0\r\n\r\n", "both Content-Length and Transfer-Encoding"),
        ("gzip coding", "POST /raw", "Transfer-Encoding: gzip", "hello", "Only the chunked"),
        ("chunked twice", "POST /raw", "Transfer-Encoding: chunked, chunked", "5\r\nhello\r\n0\r\n\r\n", "Only the chunked"),
        ("a GET body", "GET /hello", "Content-Length: 5", "hello", "cannot carry a body"),
        ("a chunked GET body", "GET /hello", "Transfer-Encoding: chunked", "5\r\nhello\r\n0\r\n\r\n", "cannot carry a body"),
        ("a HEAD body", "HEAD /hello", "Content-Length: 5", "hello", ""),
    ])
    func ambiguousFramingIsABadRequestAndCloses(name: String, requestLine: String, headers: String,
                                                body: String, message: String) throws {
        let connection = try HTTPConnection(port: server.port)
        try connection.send("\(requestLine) HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n\(headers)\r\n\r\n\(body)")
        let response = try connection.readResponse(method: requestLine.hasPrefix("HEAD") ? "HEAD" : "GET")
        #expect(response.status == 400, "\(name)")
        #expect(message.isEmpty || response.text.contains(message), "\(name)")  // HEAD: no body
        #expect(connection.isClosedByPeer(), "\(name)")
    }

    @Test func wellFramedRequestsAreStillServed() throws {
        let connection = try HTTPConnection(port: server.port)
        try connection.send("POST /raw HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: Chunked\r\n\r\n"
                            + "5\r\nhello\r\n0\r\n\r\n")
        #expect(try connection.readResponse().text == "5 bytes: hello")
        try connection.send("POST /raw HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length:  2\r\nX-Tab:\ta\tb\r\n\r\nhi")
        #expect(try connection.readResponse().text == "2 bytes: hi")
        try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
    }
}

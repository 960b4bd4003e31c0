import Testing

/// One malformed request, as the raw bytes sent, and the responses it may get.
struct MalformedRequest: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable {
        /// Exactly this status.
        case status(Int)
        /// This status, or a closed connection: the server may reset it before the response is read.
        case statusOrClose(Int)
        /// Any 4xx, or a closed connection.
        case refusal
    }

    let name: String
    let bytes: [UInt8]
    let expected: Expected
    /// Half-close after sending, as a client that has nothing more to say.
    var finishSending = false

    var testDescription: String { name }
    var isHead: Bool { bytes.starts(with: Array("HEAD ".utf8)) }
}

private func text(_ string: String) -> [UInt8] { Array(string.utf8) }

private func get(_ target: [UInt8], _ headers: String = "", method: String = "GET") -> [UInt8] {
    text("\(method) ") + target + text(" HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n")
}

private func get(_ target: String, _ headers: String = "") -> [UInt8] { get(text(target), headers) }

/// GET /healthz with one header line given as bytes.
private func withHeader(_ line: [UInt8]) -> [UInt8] { Array(get(text("/healthz")).dropLast(2)) + line + text("\r\n\r\n") }

/// A POST to /healthz (a GET-only route, so a 405 unless the body is refused first).
private func post(_ headers: String, _ body: [UInt8] = text("hello")) -> [UInt8] {
    text("POST /healthz HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n\r\n") + body
}

private func form(_ contentType: String, _ body: [UInt8]) -> [UInt8] {
    post("Content-Type: \(contentType)\r\nContent-Length: \(body.count)", body)
}

private func part(_ boundary: String, _ content: String) -> [UInt8] {
    text("--\(boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\(content)")
}

extension MalformedRequest {
    private init(_ name: String, _ bytes: [UInt8], _ expected: Expected, finishSending: Bool = false) {
        self.init(name: name, bytes: bytes, expected: expected, finishSending: finishSending)
    }

    static let battery: [MalformedRequest] = requestLines + headers + encodings + bodies + smuggling + paths + cookies

    static let requestLines: [MalformedRequest] = [
        .init("garbage request line", text("GARBAGE\r\n\r\n"), .refusal),
        .init("TLS hello on the HTTP port", [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 13, 10, 13, 10],
              .refusal, finishSending: true),
        .init("only empty lines, closed by the connection timeout", text("\r\n\r\n\r\n"), .refusal, finishSending: true),
        .init("request line without a version", text("GET /healthz\r\nHost: localhost\r\n\r\n"), .status(400)),
        .init("HTTP/0.9 request", text("GET /healthz\r\n"), .status(400)),
        .init("version that is not HTTP", text("GET /healthz FOO/1.1\r\nHost: localhost\r\n\r\n"), .status(400)),
        // libmicrohttpd's own response, and the one RFC 9110 §15.6.6 names: no version beyond 1.x is spoken.
        .init("HTTP/9.9 (505 by the RFC)", text("GET /healthz HTTP/9.9\r\nHost: localhost\r\n\r\n"), .status(505)),
        .init("HTTP/2 preface (505 by the RFC)", text("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), .status(505)),
        .init("request line of 100 KB", get(String(repeating: "/a", count: 50_000)), .statusOrClose(414)),
        .init("unknown method BREW", get(text("/healthz"), method: "BREW"), .status(405)),
        .init("lowercase method get", get(text("/healthz"), method: "get"), .status(405)),
        .init("method of 5 KB", get(text("/healthz"), method: String(repeating: "A", count: 5000)), .status(405)),
        .init("TRACE", get(text("/healthz"), method: "TRACE"), .status(405)),
        .init("CONNECT to another port", get(text("127.0.0.1:22"), method: "CONNECT"), .status(400)),
        .init("target without a slash", get("healthz"), .status(400)),
        .init("absolute-form target", get("http://elsewhere.example/healthz"), .status(400)),
    ]

    static let headers: [MalformedRequest] = [
        .init("one header of 100 KB", get("/healthz", "X-Big: \(String(repeating: "a", count: 100_000))\r\n"), .statusOrClose(431)),
        .init("5,000 headers", get("/healthz", (0..<5000).map { "X-\($0): v\r\n" }.joined()), .statusOrClose(431)),
        .init("header line without a colon", get("/healthz", "NoColonHere\r\n"), .status(400)),
        .init("header name with a NUL byte", withHeader(text("X-") + [0] + text("A: b")), .status(400)),
        .init("header value that is not UTF-8", withHeader(text("X-Name: ") + [0xC0, 0xAF]), .status(400)),
        // RFC 9112 §3.2; libmicrohttpd 0.9.75 answered both 200.
        .init("HTTP/1.1 without Host", text("GET /healthz HTTP/1.1\r\nX-Note: a\r\n\r\n"), .status(400)),
        .init("two Host headers", get("/healthz", "host: elsewhere\r\n"), .status(400)),
    ]

    static let encodings: [MalformedRequest] = [
        .init("bad %-escape in the path", get("/assets/%zz"), .status(400)),
        .init("truncated %-escape ending the path", get("/assets/app%2"), .status(400)),
        .init("bad %-escape in the query", get("/healthz?a=%zz"), .status(400)),
        .init("truncated %-escape ending the query", get("/healthz?a=%4"), .status(400)),
        .init("%00 in the query", get("/healthz?a=x%00y"), .status(400)),
        .init("invalid UTF-8 in the path, escaped", get("/assets/%FF%FE"), .status(400)),
        .init("invalid UTF-8 in the path, raw", get(text("/assets/") + [0xFF, 0xFE]), .status(400)),
        .init("invalid UTF-8 in a query value", get("/healthz?a=%FF"), .status(400)),
        .init("invalid UTF-8 in a query name", get("/healthz?%FF=1"), .status(400)),
        .init("invalid UTF-8 in the query, raw", get(text("/healthz?a=") + [0xFE]), .status(400)),
        .init("overlong UTF-8 slash in the path", get("/assets/..%C0%AFetc%C0%AFpasswd"), .status(400)),
        .init("overlong UTF-8 in the query", get("/healthz?a=%E0%80%AF"), .status(400)),
        .init("UTF-16 surrogate in the query", get("/healthz?a=%ED%A0%80"), .status(400)),
        .init("invalid UTF-8 in a urlencoded form", form("application/x-www-form-urlencoded", text("a=%FF%FE")), .status(400)),
        .init("overlong UTF-8 in a urlencoded form", form("application/x-www-form-urlencoded", text("a=%C0%AF")), .status(400)),
        .init("bad %-escapes in a urlencoded form", form("application/x-www-form-urlencoded", text("a=%zz&%=%4")), .refusal),
        .init("invalid UTF-8 in a multipart field", form("multipart/form-data; boundary=XYZ", part("XYZ", "") + [0xFF]
              + text("\r\n--XYZ--\r\n")), .status(400)),
    ]

    static let bodies: [MalformedRequest] = [
        .init("negative Content-Length", post("Content-Length: -5"), .status(400)),
        .init("non-numeric Content-Length", post("Content-Length: five"), .status(400)),
        .init("Content-Length beyond 64 bits", post("Content-Length: 99999999999999999999999"), .status(413)),
        .init("Content-Length over the body limit", post("Content-Length: 2000000"), .status(413)),
        .init("two different Content-Lengths", post("Content-Length: 5\r\nContent-Length: 6", text("hello!")), .status(400)),
        .init("Content-Length shorter than the body", post("Content-Length: 2"), .refusal),
        .init("Content-Length longer than the body, then EOF", post("Content-Length: 50"), .refusal, finishSending: true),
        .init("Content-Length longer than the body, then silence", post("Content-Length: 50"), .refusal),
        .init("Content-Length and Transfer-Encoding", post("Content-Length: 5\r\nTransfer-Encoding: chunked",
                                                           text("5\r\nhello\r\n0\r\n\r\n")), .status(400)),
        .init("Transfer-Encoding gzip", post("Transfer-Encoding: gzip"), .status(400)),
        .init("chunk size that is not hex", post("Transfer-Encoding: chunked", text("zz\r\nhello\r\n0\r\n\r\n")), .status(400)),
        .init("negative chunk size", post("Transfer-Encoding: chunked", text("-5\r\nhello\r\n0\r\n\r\n")), .status(400)),
        .init("chunk size beyond 64 bits", post("Transfer-Encoding: chunked", text("FFFFFFFFFFFFFFFFFF\r\nhello\r\n")), .status(413)),
        .init("chunk longer than its size", post("Transfer-Encoding: chunked", text("2\r\nhello\r\n0\r\n\r\n")), .status(400)),
        // Longer than libmicrohttpd's read buffer, which holds the line until it ends (it answered 500).
        .init("chunk-size line of 9 KB", post("Transfer-Encoding: chunked",
                                             text(String(repeating: "0", count: 9_000) + "5\r\nhello\r\n0\r\n\r\n")), .status(400)),
        .init("chunk extension of 9 KB", post("Transfer-Encoding: chunked",
                                             text("5;" + String(repeating: "e", count: 9_000) + "\r\nhello\r\n0\r\n\r\n")), .status(400)),
        .init("body on GET", get("/healthz", "Content-Length: 5\r\n") + text("hello"), .status(400)),
        .init("chunked body on GET", get("/healthz", "Transfer-Encoding: chunked\r\n") + text("0\r\n\r\n"), .status(400)),
        .init("body on HEAD", get(text("/healthz"), "Content-Length: 5\r\n", method: "HEAD") + text("hello"), .status(400)),
        .init("multipart without a boundary", form("multipart/form-data", text("hello")), .status(400)),
        .init("multipart with an empty boundary", form("multipart/form-data; boundary=", text("hello")), .status(400)),
        .init("multipart parts under another boundary", form("multipart/form-data; boundary=XYZ",
                                                             part("ABC", "v\r\n--ABC--\r\n")), .refusal),
        .init("multipart part never terminated", form("multipart/form-data; boundary=XYZ", part("XYZ", "ab")), .refusal),
        .init("multipart of binary garbage", form("multipart/form-data; boundary=XYZ", [0, 1, 2, 0xFF] + text("--XYZ")), .refusal),
    ]

    /// A request smuggled in the body: answered, it shows the server read the body as a new request.
    static let smuggled = text("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")

    private static func smuggle(_ headerLines: [UInt8]) -> [UInt8] {
        text("POST /healthz HTTP/1.1\r\nHost: localhost\r\n") + headerLines + text("\r\n\r\n") + smuggled
    }

    /// Shapes a front proxy and libmicrohttpd 0.9.75 may read differently; each is refused and the
    /// connection closed, so what follows is never read as a request.
    static let smuggling: [MalformedRequest] = [
        .init("space before the colon of Content-Length", smuggle(text("Content-Length : \(smuggled.count)")), .status(400)),
        .init("tab before the colon of Content-Length", smuggle(text("Content-Length\t: \(smuggled.count)")), .status(400)),
        .init("NUL inside Content-Length", smuggle(text("Content-Length: 0") + [0] + text(" \(smuggled.count)")), .status(400)),
        .init("folded Content-Length", smuggle(text("Content-Length: 0\r\n \(smuggled.count)")), .status(400)),
        .init("NUL inside Transfer-Encoding", smuggle(text("Transfer-Encoding: chunked") + [0] + text("x")), .status(400)),
        .init("bare CR in a header value", withHeader(text("X-Note: a\rContent-Length: 5")), .status(400)),
        .init("bare CR in Content-Length", smuggle(text("Content-Length: 0\r\(smuggled.count)")), .status(400)),
        .init("control byte in a header value", withHeader(text("X-Note: a") + [0x1B] + text("b")), .status(400)),
        .init("space inside a header name", withHeader(text("X Note: a")), .status(400)),
        .init("two equal Content-Lengths", post("Content-Length: 5\r\nContent-Length: 5"), .status(400)),
        .init("two Transfer-Encoding headers", post("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
                                                    text("5\r\nhello\r\n0\r\n\r\n")), .status(400)),
        .init("Transfer-Encoding chunked, chunked", post("Transfer-Encoding: chunked, chunked",
                                                         text("5\r\nhello\r\n0\r\n\r\n")), .status(400)),
        .init("Transfer-Encoding with a space inside", post("Transfer-Encoding: chunked x", text("0\r\n\r\n")), .status(400)),
        // RFC 9112 §6.1: an HTTP/1.0 request with Transfer-Encoding has faulty framing; 0.9.75 kept the connection.
        .init("Transfer-Encoding on HTTP/1.0 with keep-alive", text("POST /healthz HTTP/1.0\r\nHost: localhost\r\n"
              + "Connection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") + smuggled, .status(400)),
        // libmicrohttpd refuses these itself, before any callback; the server answers first (see
        // docs/robustness.md).
        .init("Content-Length +3", smuggle(text("Content-Length: +3")), .status(400)),
        .init("Content-Length 3, 3", smuggle(text("Content-Length: 3, 3")), .status(400)),
        .init("Content-Length 0x3", smuggle(text("Content-Length: 0x3")), .status(400)),
        .init("Content-Length -1", smuggle(text("Content-Length: -1")), .status(400)),
    ]

    static let paths: [MalformedRequest] = [
        .init("path of 6 KB", get("/" + String(repeating: "a", count: 6_144)), .status(404)),
        // Past this, libmicrohttpd has little or no memory left for the response's head (from about
        // 7.9 KB it would close in silence): the server writes the 431 itself.
        .init("path of 7 KB", get("/" + String(repeating: "a", count: 7_000)), .status(431)),
        .init("path of 7.6 KB", get("/" + String(repeating: "a", count: 7_600)), .status(431)),
        .init("path of 7.9 KB", get("/" + String(repeating: "a", count: 7_900)), .status(431)),
        .init("path of 8,000 bytes", get("/" + String(repeating: "a", count: 8_000)), .status(431)),
        .init("path of 8,100 bytes", get("/" + String(repeating: "a", count: 8_100)), .status(431)),
        .init("HEAD with a path of 7.9 KB", get(text("/" + String(repeating: "a", count: 7_900)), method: "HEAD"), .status(431)),
        .init("path of 10 KB", get("/" + String(repeating: "a", count: 10_240)), .statusOrClose(414)),
        .init("/../../etc/passwd", get("/../../etc/passwd"), .status(404)),
        .init("/assets/../../etc/passwd", get("/assets/../../etc/passwd"), .status(404)),
        .init("/assets/%2e%2e/%2e%2e/etc/passwd", get("/assets/%2e%2e/%2e%2e/etc/passwd"), .status(404)),
        .init("/assets/..%2f..%2fetc%2fpasswd", get("/assets/..%2f..%2fetc%2fpasswd"), .status(404)),
        .init("//////", get("//////"), .status(404)),
        .init("/%00", get("/%00"), .status(404)),
        .init("/assets/README.md%00.css", get("/assets/README.md%00.css"), .status(404)),
    ]

    static let cookies: [MalformedRequest] = [
        .init("5,000 cookies in one header", get("/healthz", "Cookie: \((0..<5000).map { "c\($0)=v" }.joined(separator: "; "))\r\n"),
              .statusOrClose(431)),
        .init("3,000 Cookie headers", get("/healthz", (0..<3000).map { "Cookie: c\($0)=v\r\n" }.joined()), .statusOrClose(431)),
        .init("one cookie of 60 KB", get("/healthz", "Cookie: big=\(String(repeating: "a", count: 60 * 1024))\r\n"),
              .statusOrClose(431)),
        .init("cookie that is not UTF-8", withHeader(text("Cookie: a=") + [0xFF, 0xFE]), .status(400)),
    ]
}

import Glibc

/// What a handler answers.
public struct Response: Sendable {
    public var status: Status
    public var headers: Headers
    public var body: ResponseBody
    /// Set by `Response.deferred`: the response comes later, and status, headers and body are unused.
    public internal(set) var deferred: Deferred?

    public init(status: Status = .ok, headers: Headers = .init(), body: ResponseBody = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML document; the server adds the security headers every HTML response carries.
    public static func html(_ bytes: [UInt8], status: Status = .ok) -> Response {
        html(.bytes(bytes), status: status)
    }

    /// An HTML document from any kind of body.
    public static func html(_ body: ResponseBody, status: Status = .ok) -> Response {
        Response(status: status, headers: Headers([("Content-Type", "text/html; charset=utf-8")]), body: body)
    }

    public static func text(_ text: String, status: Status = .ok,
                            contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: Headers([("Content-Type", contentType)]),
                 body: .bytes(Array(text.utf8)))
    }

    /// A 303 See Other: the response to a form post (post/redirect/get).
    public static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: Headers([("Location", location)]))
    }

    public mutating func setCookie(_ cookie: SetCookie) { headers.add("Set-Cookie", cookie.headerValue) }

    /// Behind HTTPS: every cookie `Secure`, and browsers told to use HTTPS from now on (HSTS).
    mutating func secureForHTTPS() {
        headers = Headers(headers.fields.map { field in
            guard field.name.caseInsensitiveEquals("Set-Cookie"),
                  !field.value.lowercased().contains("; secure") else { return field }
            return (field.name, field.value + "; Secure")
        })
        headers.set("Strict-Transport-Security", "max-age=31536000")
    }

    /// Whether the body is an HTML document, which gets the CSP and related headers.
    /// Compares bytes with `memcmp`: `hasPrefix` walks grapheme boundaries and a UTF-8 view
    /// byte by byte, and this runs on every response.
    public var isHTML: Bool {
        guard var type = headers["Content-Type"] else { return false }
        return type.withUTF8 { $0.count >= 9 && memcmp($0.baseAddress!, "text/html", 9) == 0 }
    }
}

/// A response body: bytes in memory (whole, or spliced from pieces), a file sent by the kernel,
/// a stream written over time by another thread, or chunks pulled as the client reads.
public enum ResponseBody: Sendable {
    case bytes([UInt8])
    case file(OpenFile)
    case stream(ResponseStream)
    case chunks(ChunkedBody)
    case spliced(SplicedBody)
}

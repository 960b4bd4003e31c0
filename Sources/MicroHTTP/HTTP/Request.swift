/// One HTTP request, fully read: the server calls handlers only once the body has arrived.
///
/// The fields live in one immutable object: a request is handed down by value through routes,
/// visits and controllers, and each copy then costs one reference count instead of ten.
public struct Request: Sendable {
    private let storage: Storage
    /// Values of the route's named parameters (`/long/:id` → `parameters["id"]`).
    public internal(set) var parameters: [String: String] = [:]
    /// The client reached a trusted proxy over HTTPS (`X-Forwarded-Proto: https`).
    public internal(set) var isHTTPS = false
    /// The socket's peer is a loopback address and is not a trusted proxy.
    var peerIsLocal = false

    /// A process-unique id, also sent back as `X-Request-Id` and written in logs.
    public var id: String { storage.id }
    public var method: Method { storage.method }
    /// The request target exactly as sent (path and query, still percent-encoded).
    public var target: String { storage.target }
    /// The decoded path segments; `/long/m-1` is `["long", "m-1"]`.
    public var pathSegments: [String] { storage.pathSegments }
    public var query: QueryParameters { storage.query }
    public var headers: Headers { storage.headers }
    public var cookies: Cookies { storage.cookies }
    /// Fields of a urlencoded or multipart body.
    public var form: FormFields { storage.form }
    /// The body of any other content type; empty for forms.
    public var body: [UInt8] { storage.body }
    var clientAddress: ClientAddress { storage.clientAddress }

    public init(id: String = "test", method: Method, target: String, pathSegments: [String],
                query: QueryParameters = .init(), headers: Headers = .init(),
                cookies: Cookies = [:], form: FormFields = .init(), body: [UInt8] = [],
                remoteAddress: String = "127.0.0.1") {
        self.init(id: id, method: method, target: target, pathSegments: pathSegments, query: query, headers: headers,
                  cookies: cookies, form: form, body: body, clientAddress: ClientAddress(text: remoteAddress))
        peerIsLocal = clientAddress.isLoopback
    }

    init(id: String, method: Method, target: String, pathSegments: [String], query: QueryParameters,
         headers: Headers, cookies: Cookies, form: FormFields, body: [UInt8], clientAddress: ClientAddress) {
        storage = Storage(id: id, method: method, target: target, pathSegments: pathSegments, query: query,
                          headers: headers, cookies: cookies, form: form, body: body, clientAddress: clientAddress)
    }

    /// The client's IP address.
    public var remoteAddress: String { clientAddress.text }

    /// The client as a number for per-client limits (an IPv6 client by its /64), made without
    /// writing the address as text.
    public var clientKey: UInt64 { clientAddress.key }

    /// Asked on this machine, not passed on by a proxy: the socket's peer is a loopback address,
    /// not a trusted proxy, and the request names no earlier hop. A proxy on the same machine
    /// (nginx in front, trusted or not) makes every request it passes look like loopback, so
    /// what it forwards is never local.
    public var isLocal: Bool {
        peerIsLocal && headers["X-Forwarded-For"] == nil && headers["Forwarded"] == nil && headers["X-Real-IP"] == nil
    }

    /// The path part of the target, still encoded.
    public var path: Substring {
        let target = storage.target
        return Substring(target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target.utf8[..<$0] } ?? target.utf8[...])
    }

    private final class Storage: Sendable {
        let id: String
        let method: Method
        let target: String
        let pathSegments: [String]
        let query: QueryParameters
        let headers: Headers
        let cookies: Cookies
        let form: FormFields
        let body: [UInt8]
        let clientAddress: ClientAddress

        init(id: String, method: Method, target: String, pathSegments: [String], query: QueryParameters,
             headers: Headers, cookies: Cookies, form: FormFields, body: [UInt8], clientAddress: ClientAddress) {
            self.id = id
            self.method = method
            self.target = target
            self.pathSegments = pathSegments
            self.query = query
            self.headers = headers
            self.cookies = cookies
            self.form = form
            self.body = body
            self.clientAddress = clientAddress
        }
    }
}

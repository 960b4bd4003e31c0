/// One HTTP request, fully read: the server calls handlers only once the body has arrived.
public struct Request: Sendable {
    /// A process-unique id, also sent back as `X-Request-Id` and written in logs.
    public let id: String
    public let method: Method
    /// The request target exactly as sent (path and query, still percent-encoded).
    public let target: String
    /// The decoded path segments; `/long/m-1` is `["long", "m-1"]`.
    public let pathSegments: [String]
    /// Values of the route's named parameters (`/long/:id` → `parameters["id"]`).
    public internal(set) var parameters: [String: String] = [:]
    public let query: QueryParameters
    public let headers: Headers
    public let cookies: Cookies
    /// Fields of a urlencoded or multipart body.
    public let form: FormFields
    /// The body of any other content type; empty for forms.
    public let body: [UInt8]
    let clientAddress: ClientAddress

    public init(id: String = "test", method: Method, target: String, pathSegments: [String],
                query: QueryParameters = .init(), headers: Headers = .init(),
                cookies: Cookies = [:], form: FormFields = .init(), body: [UInt8] = [],
                remoteAddress: String = "127.0.0.1") {
        self.init(id: id, method: method, target: target, pathSegments: pathSegments, query: query, headers: headers,
                  cookies: cookies, form: form, body: body, clientAddress: ClientAddress(text: remoteAddress))
    }

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

    /// The client's IP address.
    public var remoteAddress: String { clientAddress.text }

    /// The path part of the target, still encoded.
    public var path: Substring {
        Substring(target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target.utf8[..<$0] } ?? target.utf8[...])
    }
}

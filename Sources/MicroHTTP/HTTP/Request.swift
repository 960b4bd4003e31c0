import Basics

/// One HTTP request, fully read: the server calls handlers only once the body has arrived.
///
/// The fields live in one object: a request is handed down by value through routes, visits and
/// controllers, and each copy then costs one reference count instead of ten. A keep-alive
/// connection's requests reuse one such object when nothing kept the last request
/// (`RequestState.requestStorage`): it is written only then, before the request is handed out.
public struct Request: Sendable {
    private let storage: Storage
    /// Values of the route's named parameters (`/long/:id` → `parameters["id"]`).
    /// `Dictionary()`, not the literal `[:]`: its initializer ran for every request.
    public internal(set) var parameters = [String: String]()
    /// The client reached a trusted proxy over HTTPS (`X-Forwarded-Proto: https`).
    public internal(set) var isHTTPS = false
    /// The socket's peer is a loopback address and is not a trusted proxy.
    var peerIsLocal = false

    /// A process-unique id, also sent back as `X-Request-Id` and written in logs.
    public var id: String { storage.givenID ?? storage.requestID.text }
    /// The same id as a value, for the report log to write its bytes without a `String`; nil for a
    /// request made with an id of its own (`id` then has it).
    public var serverID: RequestID? { storage.givenID == nil ? storage.requestID : nil }
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
        storage = Storage(requestID: .none, givenID: id, method: method, target: target, pathSegments: pathSegments,
                          query: query, headers: headers, cookies: cookies, form: form, body: body,
                          clientAddress: ClientAddress(text: remoteAddress))
        peerIsLocal = clientAddress.isLoopback
    }

    /// A request in `spare` when nothing else holds it (then kept there), else in a new object kept there.
    /// The method is borrowed and written only when it differs (the last request's, mostly the same).
    init(reusing spare: inout Storage?, id: RequestID, method: borrowing Method, target: String, pathSegments: [String],
         query: QueryParameters, headers: Headers, cookies: Cookies, form: FormFields, body: [UInt8],
         clientAddress: ClientAddress) {
        if spare != nil, isKnownUniquelyReferenced(&spare!) {
            let reused = spare!
            reused.requestID = id
            if reused.givenID != nil { reused.givenID = nil }
            if reused.method != method { reused.method = copy method }
            reused.target = target
            reused.pathSegments = pathSegments
            reused.query = query
            reused.headers = headers
            reused.cookies = cookies
            // A cleared storage's form and body are empty already: an empty one is not written.
            if !form.fields.isEmpty || !reused.form.fields.isEmpty { reused.form = form }
            if !body.isEmpty || !reused.body.isEmpty { reused.body = body }
            reused.clientAddress = clientAddress
            storage = reused
        } else {
            storage = Storage(requestID: id, givenID: nil, method: copy method, target: target, pathSegments: pathSegments,
                              query: query, headers: headers, cookies: cookies, form: form, body: body,
                              clientAddress: clientAddress)
            spare = storage
        }
    }

    /// The object holding the fields, and the memory of the headers' copy: a connection's requests
    /// reuse both when nothing kept the last one (seen by tests).
    var storageObject: AnyObject { storage }
    var headerMemoryObject: AnyObject? { storage.headers.receivedMemory }

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

    /// Unchecked `Sendable`: written only while one request state holds it alone (`init(reusing:)`,
    /// `clear`), read only once a request holds it.
    final class Storage: @unchecked Sendable {
        /// The server's id for the request; `givenID` instead when one was made with its own (tests).
        fileprivate(set) var requestID: RequestID
        fileprivate(set) var givenID: String?
        fileprivate(set) var method: Method
        fileprivate(set) var target: String
        fileprivate(set) var pathSegments: [String]
        fileprivate(set) var query: QueryParameters
        fileprivate(set) var headers: Headers
        fileprivate(set) var cookies: Cookies
        fileprivate(set) var form: FormFields
        fileprivate(set) var body: [UInt8]
        fileprivate(set) var clientAddress: ClientAddress

        /// Lets go of the last request's values once it completed (its buffers freed now, not at
        /// the next request); only while nothing else holds this object.
        func clear() {
            requestID = .none
            if givenID != nil { givenID = nil }
            target = ""
            if !pathSegments.isEmpty { pathSegments = [] }
            query = QueryParameters()
            headers = .none
            cookies = Cookies()
            if !form.fields.isEmpty { form = FormFields() }
            if !body.isEmpty { body = [] }
            clientAddress = ClientAddress(text: "")
        }

        init(requestID: RequestID, givenID: String?, method: Method, target: String, pathSegments: [String], query: QueryParameters,
             headers: Headers, cookies: Cookies, form: FormFields, body: [UInt8], clientAddress: ClientAddress) {
            self.requestID = requestID
            self.givenID = givenID
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

import CMicroHTTPD
import Glibc

/// Reads a complete `Request` off a libmicrohttpd connection, refusing what is not well-formed.
/// Functions, not a struct holding its inputs: arguments are borrowed, where a struct's fields were
/// retained when it was made and released after (the state, the method's name, the proxies' set).
enum RequestReader {
    static func read(_ connection: OpaquePointer, _ context: RequestState, method: Method,
                     trustedProxies: TrustedProxies) throws(HTTPError) -> Request {
        // Moved out: the state has no more use for it, and a copy was retained and released.
        guard let target = context.rawTarget.take() else {
            throw HTTPError(.badRequest, "The address is not valid: it holds bytes that are not UTF-8.")
        }
        // The path, where the query starts and its escapes' check, read over the target's own
        // bytes: substrings of it checked where their bounds fall on every request. Read in place
        // (a `var` copy for `withUTF8` retained the target's storage and released it).
        let scan = { (bytes: UnsafeBufferPointer<UInt8>) -> (Bool, [String]?, Int?, Bool) in
            // Origin form only: absolute and asterisk forms are for proxies and OPTIONS, neither served here.
            guard bytes.first == UInt8(ascii: "/") else { return (false, nil, nil, true) }
            let question = bytes.firstOffset(of: UInt8(ascii: "?"), in: 0..<bytes.count)
            let segments = PathDecoding.segments(in: UnsafeBufferPointer(rebasing: bytes[..<(question ?? bytes.count)]))
            guard let question else { return (true, segments, nil, true) }
            return (true, segments, question + 1,
                    PathDecoding.hasWellFormedEscapes(UnsafeBufferPointer(rebasing: bytes[question...])))
        }
        let (origin, path, query, escapes) = target.utf8.withContiguousStorageIfAvailable(scan)
            ?? { var text = target; return text.withUTF8(scan) }()
        // A refusal puts the target back: its error page takes the form the address answers in.
        guard origin else {
            context.rawTarget = target
            throw HTTPError(.badRequest, "The address is not valid: it must be a path that starts with /.")
        }
        guard let segments = path else {
            context.rawTarget = target
            throw HTTPError(.badRequest, "The address is not valid: a %-escape is malformed or not UTF-8.")
        }
        var arguments = QueryParameters()
        if let query {
            guard escapes else {
                context.rawTarget = target
                throw HTTPError(.badRequest, "The query is not valid: a %-escape is malformed or encodes NUL.")
            }
            do {
                arguments = try QueryParameters.decode(target, from: query, expected: context.queryArgumentCount)
            } catch {
                context.rawTarget = target
                throw HTTPError(.badRequest, "The query parameter \"\(error.name)\" is not valid UTF-8.")
            }
        }
        // Moved out, as the target is: lent, it was retained, released, and released again when cleared.
        let (received, invalidName, cookies, acceptedCoding) = ReceivedHeaders.read(from: connection,
                                                                                    copied: context.headers.take())
        if let name = invalidName {
            context.rawTarget = target
            throw HTTPError(.badRequest, "The header \"\(name)\" is not valid UTF-8.")
        }
        context.acceptedCoding = acceptedCoding
        var client = ClientAddress(dh_client_address(connection))
        var https = false
        var peerIsLocal = client.isLoopback
        let fields = Headers(received: received)
        if !trustedProxies.isEmpty, let forwarded = trustedProxies.resolve(peer: client.text, headers: fields) {
            if let address = forwarded.client { client = ClientAddress(text: address) }
            https = forwarded.https
            peerIsLocal = false
        }
        // A request without a body (most) hands on empty values, not the state's.
        let empty = context.formFields.isEmpty && context.body.isEmpty
        let form = if empty { FormFields() } else { try form(of: context) }
        var request = Request(
            reusing: &context.requestStorage, id: context.requestID, method: method, target: target, pathSegments: segments,
            query: arguments, headers: fields, cookies: cookies,
            form: form, body: empty ? [] : context.body, clientAddress: client)
        request.isHTTPS = https
        request.peerIsLocal = peerIsLocal
        return request
    }

    private static func form(of context: RequestState) throws(HTTPError) -> FormFields {
        for field in context.formFields where field.filename == nil {
            guard String(validating: field.bytes, as: UTF8.self) != nil else {
                throw HTTPError(.badRequest, "The form field \"\(field.name)\" is not valid UTF-8.")
            }
        }
        return FormFields(context.formFields)
    }
}

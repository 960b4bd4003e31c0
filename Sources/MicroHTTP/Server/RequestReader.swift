import CMicroHTTPD
import Glibc

/// Reads a complete `Request` off a libmicrohttpd connection, refusing what is not well-formed.
struct RequestReader {
    let connection: OpaquePointer
    let context: RequestState
    let method: Method
    let trustedProxies: TrustedProxies

    func read() throws(HTTPError) -> Request {
        guard let target = context.rawTarget else {
            throw HTTPError(.badRequest, "The address is not valid: it holds bytes that are not UTF-8.")
        }
        // Origin form only: absolute and asterisk forms are for proxies and OPTIONS, neither served here.
        guard target.utf8.first == UInt8(ascii: "/") else {
            throw HTTPError(.badRequest, "The address is not valid: it must be a path that starts with /.")
        }
        // Substrings over UTF-8 ranges: `?` is ASCII, and slicing the String itself would first
        // check that the index falls on a Unicode scalar boundary.
        let question = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        guard let segments = PathDecoding.segments(of: Substring(question.map { target.utf8[..<$0] } ?? target.utf8[...])) else {
            throw HTTPError(.badRequest, "The address is not valid: a %-escape is malformed or not UTF-8.")
        }
        var arguments: [(name: String, value: String)] = []
        if let question {
            var query = Substring(target.utf8[question...])
            guard query.withUTF8(PathDecoding.hasWellFormedEscapes) else {
                throw HTTPError(.badRequest, "The query is not valid: a %-escape is malformed or encodes NUL.")
            }
            do {
                arguments = try QueryParameters.decode(Substring(query.utf8.dropFirst()),
                                                   expected: context.queryArgumentCount).pairs
            } catch {
                throw HTTPError(.badRequest, "The query parameter \"\(error.name)\" is not valid UTF-8.")
            }
        }
        let headers = ReceivedHeaders.read(from: connection, copied: context.headers)
        context.headers = nil
        if let name = headers.invalidName {
            throw HTTPError(.badRequest, "The header \"\(name)\" is not valid UTF-8.")
        }
        context.acceptedCoding = headers.acceptedCoding
        var client = ClientAddress(dh_client_address(connection))
        var https = false
        var peerIsLocal = client.isLoopback
        let fields = Headers(received: headers.headers)
        if !trustedProxies.isEmpty, let forwarded = trustedProxies.resolve(peer: client.text, headers: fields) {
            if let address = forwarded.client { client = ClientAddress(text: address) }
            https = forwarded.https
            peerIsLocal = false
        }
        var request = Request(
            id: context.id, method: method, target: target, pathSegments: segments,
            query: QueryParameters(arguments), headers: fields,
            cookies: headers.cookies,
            form: try form(), body: context.body, clientAddress: client)
        request.isHTTPS = https
        request.peerIsLocal = peerIsLocal
        return request
    }

    private func form() throws(HTTPError) -> FormFields {
        for field in context.formFields where field.filename == nil {
            guard String(validating: field.bytes, as: UTF8.self) != nil else {
                throw HTTPError(.badRequest, "The form field \"\(field.name)\" is not valid UTF-8.")
            }
        }
        return FormFields(context.formFields)
    }
}

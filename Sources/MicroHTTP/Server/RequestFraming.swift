import CMicroHTTPD

/// Refuses, before any of the body is read, a request whose body length is ambiguous or that
/// sends a body where none belongs. libmicrohttpd 0.9.75 picks one reading of such a request
/// and carries on; a front proxy may pick another, which is how request smuggling works.
enum RequestFraming {
    static func problem(on connection: OpaquePointer, method: Method) -> String? {
        // Most requests have neither header: two look-ups, no allocation.
        guard MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") != nil
            || MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil else { return nil }
        let collector = PairCollector.collect(.HEADER_KIND, on: connection)
        let lengths = collector.pairs.filter { $0.name.caseInsensitiveEquals("Content-Length") }.map(\.value)
        let codings = collector.pairs.filter { $0.name.caseInsensitiveEquals("Transfer-Encoding") }.map(\.value)
        // RFC 9112 §6.3: differing lengths are an unrecoverable framing error.
        if Set(lengths).count > 1 { return "The request has conflicting Content-Length headers." }
        if !codings.isEmpty {
            // §6.1: a server may refuse both at once; 0.9.75 would keep the connection open after it.
            if !lengths.isEmpty { return "The request has both Content-Length and Transfer-Encoding." }
            // §6.3: unless chunked is the one and final coding the length is unknown: 400 and close.
            // 0.9.75 would instead read the body until the client closes or the timeout strikes.
            guard codings.count == 1, codings[0].lowercased() == "chunked" else {
                return "Only the chunked transfer coding is accepted."
            }
        }
        // RFC 9110 §9.3.1: a GET body has no meaning, and may be refused as a smuggling vector.
        if method == .get || method == .head, !codings.isEmpty || lengths.contains(where: { $0 != "0" }) {
            return "A \(method) request cannot carry a body."
        }
        return nil
    }
}

import CMicroHTTPD
import Glibc

/// Refuses, before any of the body is read, a request whose headers are malformed, whose body
/// length is ambiguous or that sends a body where none belongs. libmicrohttpd 0.9.75 picks one
/// reading of such a request and carries on; a front proxy may pick another, which is how
/// request smuggling works. The headers are read with their true lengths (`dh_read_head`, in the
/// pass that copies them: `ReceivedHeaders.checked`): the NUL-terminated view would end
/// `Content-Length: 0\0 5` at the NUL.
enum RequestFraming {
    static func problem(_ check: dh_head_check, on connection: OpaquePointer, method: Method,
                        version: UnsafePointer<CChar>?) -> String? {
        // Made only for a problem: most requests have none.
        var name: String { withUnsafeBytes(of: check.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
        switch check.problem {
        case DH_HEAD_BAD_NAME:
            return "A header name holds a character a name cannot have (such as a space before the colon): \"\(name)\"."
        case DH_HEAD_BAD_VALUE:
            return "The header \"\(name)\" holds a control character (a byte below 0x20 other than tab, or 0x7F)."
        case DH_HEAD_BAD_LENGTH:
            return "Content-Length must be a plain decimal number."
        case DH_HEAD_REPEATED_LENGTH:
            // RFC 9112 §6.3: differing lengths are an unrecoverable framing error; equal ones are refused too.
            return "The request has more than one Content-Length header."
        case DH_HEAD_HIDDEN_BYTES:
            return "The header \"\(name)\" hides bytes after its value (a NUL, or a folded line)."
        case DH_HEAD_BAD_CODING:
            // §6.3: unless chunked is the one and final coding the length is unknown: 400 and close.
            // 0.9.75 would instead read the body until the client closes or the timeout strikes.
            return "Only the chunked transfer coding is accepted, in one Transfer-Encoding header."
        case DH_HEAD_REPEATED_HOST:
            // RFC 9112 §3.2: more than one Host is refused; 0.9.75 kept the first.
            return "The request has more than one Host header."
        default:
            break
        }
        // §3.2: an HTTP/1.1 request without Host gets 400; 0.9.75 answers it as any other.
        if check.hosts == 0, let version, strcmp(version, "HTTP/1.1") == 0 {
            return "An HTTP/1.1 request must name its host in a Host header."
        }
        let hasLength = check.content_lengths > 0, isChunked = check.transfer_encodings > 0
        // §6.1: Transfer-Encoding in an HTTP/1.0 request is faulty framing (a 1.0 sender or proxy
        // may not have meant chunked): refused, and the connection closed after the response.
        // 0.9.75 would read it chunked and keep a keep-alive connection open.
        if isChunked, let version, strcmp(version, "HTTP/1.0") == 0 {
            return "An HTTP/1.0 request cannot use Transfer-Encoding; send Content-Length, or use HTTP/1.1."
        }
        // §6.1: a server may refuse both at once; 0.9.75 would keep the connection open after it.
        if hasLength && isChunked { return "The request has both Content-Length and Transfer-Encoding." }
        // RFC 9110 §9.3.1: a GET body has no meaning, and may be refused as a smuggling vector.
        if method == .get || method == .head, isChunked || (hasLength && !lengthIsZero(on: connection)) {
            return "A \(method) request cannot carry a body."
        }
        return nil
    }

    /// Whether the (one, all-digit) Content-Length is exactly `0`.
    private static func lengthIsZero(on connection: OpaquePointer) -> Bool {
        guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else { return true }
        return strcmp(value, "0") == 0
    }
}

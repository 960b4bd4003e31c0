/// The answer to `HEAD`: the `GET` route's status and headers without its body.
///
/// libmicrohttpd 0.9.75 sends no body for `HEAD` but still ends a response of unknown size with
/// the chunked terminator (`0\r\n\r\n`), which the client then reads as the start of the next
/// response on the connection. A stream or chunked body is therefore closed unread and sent as
/// no bytes at all; the other bodies have a known length and are left to libmicrohttpd.
enum HeadResponse {
    static func strip(_ response: Response) -> Response {
        var stripped = response
        switch response.body {
        case .stream(let stream):
            // Never attached to a connection: closing it runs its close handlers (unsubscribing).
            stream.close()
        case .chunks(let body):
            body.close()
        default:
            // Bodies of known length: libmicrohttpd sends their head alone.
            return response
        }
        stripped.body = .bytes([])
        return stripped
    }
}

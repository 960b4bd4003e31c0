import Basics
import CMicroHTTPD
import Glibc

/// A libmicrohttpd response over a spliced copy's bytes, kept with the copy and queued again for
/// every request the copy is lent to. Its headers are added once; a request with the same
/// headers only swaps the request id, and the `Date` once a second. Adding five headers costs
/// libmicrohttpd fifteen allocations per response, which was a fifth of the work of serving a
/// cached page.
///
/// libmicrohttpd counts the connections holding a response, so queuing one again is its intended
/// use. It is changed only while its copy is back from the last request: that connection has
/// sent everything by then and at most still drops its count.
final class PreparedResponse {
    let handle: OpaquePointer
    /// The handler's headers it carries; the server's own come after them.
    let headers: Headers
    private var requestID: RequestID
    /// libmicrohttpd's copy of the id's value, found once: looking it up walks the header list
    /// with `strcasecmp` for every request.
    private var requestIDValue: UnsafePointer<CChar>?
    /// The id's bytes as last written into that value (`RequestID.write`'s room), to check the
    /// value against before writing over it. Only this object touches it, never overlapping.
    @exclusivity(unchecked) private var written: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The second the `Date` header shows, and libmicrohttpd's copy of its value; nil when the
    /// response carries no `Date` of this object's (libmicrohttpd then adds its own).
    private var dateSecond = 0
    private var dateValue: UnsafeMutablePointer<CChar>?

    init(handle: OpaquePointer, headers: Headers, requestID: RequestID) {
        self.handle = handle
        self.headers = headers
        self.requestID = requestID
        withUnsafeMutableBytes(of: &written) { _ = requestID.write(to: $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Adds a `Date` header for `now`, kept current by `refreshDate`. Only for a response whose
    /// handler set none.
    func addDate(now: Int = time(nil)) {
        let value = HTTPDate.text(now)
        guard MHD_add_response_header(handle, "Date", value) == .YES,
              let added = MHD_get_response_header(handle, "Date"), strlen(added) == HTTPDate.count
        else { return }
        // libmicrohttpd keeps its own copy of the value and reads it only when the response is queued.
        dateValue = UnsafeMutablePointer(mutating: added)
        dateSecond = now
    }

    /// Writes the date of `now` over the last one's bytes when the second changed.
    func refreshDate(now: Int = time(nil)) {
        guard let dateValue, now != dateSecond else { return }
        HTTPDate.write(now, to: dateValue)
        dateSecond = now
    }

    deinit { MHD_destroy_response(handle) }

    /// Replaces the request id header's value; false when the header could not be replaced.
    func setRequestID(_ id: RequestID) -> Bool {
        if rewriteRequestID(id) { return true }
        let name = ServerCore.requestIDHeader.cString
        let removed = requestID.withCString { MHD_del_response_header(handle, name, $0) }
        requestIDValue = nil
        guard removed == .YES, id.withCString({ MHD_add_response_header(handle, name, $0) }) == .YES else { return false }
        requestID = id
        withUnsafeMutableBytes(of: &written) { _ = id.write(to: $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        return true
    }

    /// Writes an id as long as the last one over the last one's bytes. libmicrohttpd keeps its own
    /// copy of a header's value and reads it only when the response is queued; replacing the
    /// header instead costs it three frees and three allocations.
    private func rewriteRequestID(_ id: RequestID) -> Bool {
        let count = requestID.count
        guard id.count == count,
              let value = requestIDValue ?? MHD_get_response_header(handle, ServerCore.requestIDHeader.cString)
        else { return false }
        requestIDValue = value
        return withUnsafeMutableBytes(of: &written) { written in
            let bytes = written.baseAddress!
            // Only over the value this object set: the bytes are checked before they are changed.
            guard strlen(value) == count, memcmp(value, bytes, count) == 0 else { return false }
            // Written here first: `write` may fill a little past an id's end.
            id.write(to: bytes.assumingMemoryBound(to: UInt8.self))
            UnsafeMutableRawPointer(mutating: value).copyMemory(from: bytes, byteCount: count)
            requestID = id
            return true
        }
    }
}

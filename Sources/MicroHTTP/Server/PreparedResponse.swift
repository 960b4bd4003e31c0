import CMicroHTTPD
import Glibc

/// A libmicrohttpd response over a spliced copy's bytes, kept with the copy and queued again for
/// every request the copy is lent to. Its headers are added once; a request with the same
/// headers only swaps the request id. Adding five headers costs libmicrohttpd fifteen
/// allocations per response, which was a fifth of the work of serving a cached page.
///
/// libmicrohttpd counts the connections holding a response, so queuing one again is its intended
/// use. It is changed only while its copy is back from the last request: that connection has
/// sent everything by then and at most still drops its count.
final class PreparedResponse {
    let handle: OpaquePointer
    /// The handler's headers it carries; the server's own come after them.
    let headers: Headers
    private var requestID: String
    /// libmicrohttpd's copy of the id's value, found once: looking it up walks the header list
    /// with `strcasecmp` for every request.
    private var requestIDValue: UnsafePointer<CChar>?

    init(handle: OpaquePointer, headers: Headers, requestID: String) {
        self.handle = handle
        self.headers = headers
        self.requestID = requestID
    }

    deinit { MHD_destroy_response(handle) }

    /// Replaces the request id header's value; false when the header could not be replaced.
    func setRequestID(_ id: String) -> Bool {
        if rewriteRequestID(id) { return true }
        let name = ServerCore.requestIDHeader.cString
        let removed = requestID.withCString { MHD_del_response_header(handle, name, $0) }
        requestIDValue = nil
        guard removed == .YES, id.withCString({ MHD_add_response_header(handle, name, $0) }) == .YES else { return false }
        requestID = id
        return true
    }

    /// Writes an id as long as the last one over the last one's bytes. libmicrohttpd keeps its own
    /// copy of a header's value and reads it only when the response is queued; replacing the
    /// header instead costs it three frees and three allocations.
    private func rewriteRequestID(_ id: String) -> Bool {
        var old = requestID, new = id
        guard new.utf8.count == old.utf8.count, !old.isEmpty,
              let value = requestIDValue ?? MHD_get_response_header(handle, ServerCore.requestIDHeader.cString)
        else { return false }
        requestIDValue = value
        let rewritten = old.withUTF8 { old in
            new.withUTF8 { new in
                // Only over the value this object set: the bytes are checked before they are changed.
                guard strlen(value) == old.count, memcmp(value, old.baseAddress!, old.count) == 0 else { return false }
                UnsafeMutableRawPointer(mutating: value).copyMemory(from: new.baseAddress!, byteCount: new.count)
                return true
            }
        }
        if rewritten { requestID = id }
        return rewritten
    }
}

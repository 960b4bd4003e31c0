import Basics
import CMicroHTTPD

/// Per-request state that libmicrohttpd carries for us in `con_cls`, from the raw URI to the
/// completion notice; then reset and kept by its connection for the next request
/// (`OpenConnection`). Only the connection's own thread touches it, and never through overlapping
/// accesses: the fields read on every request go without the runtime's exclusivity check (about
/// 65 instructions an access).
final class RequestState {
    /// The connection that reuses this state; nil for one of its own. The connection outlives
    /// its requests: libmicrohttpd reports a request complete before it reports its connection
    /// closed. Unmanaged: a reference read from an unowned one is retained and released.
    let owner: Unmanaged<OpenConnection>?
    /// The connection's head deadline (`HeadDeadlines`); nil while those are off.
    let deadline: ConnectionDeadline?
    /// The request target as sent; nil when its bytes are not UTF-8.
    @exclusivity(unchecked) var rawTarget: String?
    /// Arguments in the target's query, counted before anything is decoded.
    @exclusivity(unchecked) var queryArgumentCount = 0
    @exclusivity(unchecked) var requestID = RequestID.none
    @exclusivity(unchecked) var headersSeen = false
    /// The method as libmicrohttpd passed it on the first call: the start of the head in its read
    /// buffer, valid during that call only (`RequestFraming` checks the head's layout from it).
    @exclusivity(unchecked) var headStart: UnsafePointer<CChar>?
    /// The headers, copied when the head was checked; taken when the request is read.
    @exclusivity(unchecked) var headers: ReceivedHeaders.Copy?
    /// The memory of the last request's header copy and its `Request`'s fields, kept for the
    /// connection's next request when nothing else holds them once it completed (`reset`): the
    /// allocations and frees of two objects a request. Nothing can take them between the reset
    /// and the next request, so that request writes them without looking again.
    @exclusivity(unchecked) var headerMemory: ReceivedHeaders.Memory?
    @exclusivity(unchecked) var requestStorage: Request.Storage?
    var postProcessor: OpaquePointer?
    @exclusivity(unchecked) var formFields: [FormField] = []
    @exclusivity(unchecked) var body: [UInt8] = []
    @exclusivity(unchecked) var receivedBytes = 0
    /// Listed in this thread's `ThreadRequests.chunkedBodies` until the body is in.
    var chunkedBodyArriving = false
    /// The head announced a body (its method carries one), whose arrival the deadlines follow.
    @exclusivity(unchecked) var expectsBody = false
    /// The form body could not be decoded; answered once it has finished arriving.
    var formIsMalformed = false
    /// An URL-encoded body's `%`-escapes are checked as it arrives: libmicrohttpd's post
    /// processor drops one cut short at the end without a word.
    @exclusivity(unchecked) var escapes: PercentEscapes?
    /// The largest body this request's path takes (`ServerConfiguration.bodyLimits`).
    @exclusivity(unchecked) var bodyLimit = 0
    /// The spliced copy the response is sent from, given back once the request completes.
    var lentCopy: SplicedCopy?
    /// The coding the request's `Accept-Encoding` prefers, once its headers are read; before
    /// (a response from the head's checks) the server looks the header up.
    @exclusivity(unchecked) var acceptedCoding: ContentCoding?
    /// Came through a trusted proxy over HTTPS: a deferred response is secured like an immediate one.
    var https = false
    /// Set while the connection waits for a `Response.deferred` answer.
    var deferredResponse: DeferredResponse?
    /// For `/metrics`: when the request began (monotonic ns), the route found, the status and
    /// body bytes queued.
    @exclusivity(unchecked) var startedAt: UInt64 = 0
    @exclusivity(unchecked) var route: Int?
    @exclusivity(unchecked) var status = 0
    @exclusivity(unchecked) var bytesOut = 0

    init(owner: OpenConnection? = nil) {
        self.owner = owner.map { Unmanaged.passUnretained($0) }
        deadline = owner?.deadline
    }

    /// A new request's target, as the URI callback read it, and its id.
    func start(rawTarget: String?, queryArgumentCount: Int, id: RequestID) {
        self.rawTarget = rawTarget
        self.queryArgumentCount = queryArgumentCount
        requestID = id
    }

    /// The request's id as text, for a log line or an error page.
    var id: String { requestID.text }

    /// Back to a new state's fields, once the request completed (`complete`): nothing of it
    /// reaches the next request on the connection, and what it held is freed now, not when the
    /// next one starts. A reference already empty is not written: writing it releases the empty one.
    func reset() {
        rawTarget = nil
        queryArgumentCount = 0
        requestID = .none
        headersSeen = false
        headStart = nil
        if headers != nil { headers = nil }
        if requestStorage != nil {
            if isKnownUniquelyReferenced(&requestStorage!) { requestStorage!.clear() } else { requestStorage = nil }
        }
        if headerMemory != nil, !headerMemory!.isKeptAlone() { headerMemory = nil }
        postProcessor = nil
        if !formFields.isEmpty { formFields = [] }
        if !body.isEmpty { body = [] }
        receivedBytes = 0
        chunkedBodyArriving = false
        formIsMalformed = false
        expectsBody = false
        escapes = nil
        bodyLimit = 0
        if lentCopy != nil { lentCopy = nil }
        acceptedCoding = nil
        https = false
        if deferredResponse != nil { deferredResponse = nil }
        startedAt = 0
        route = nil
        status = 0
        bytesOut = 0
    }

    /// Appends a chunk the post processor decoded; `offset > 0` continues the last field.
    func appendFormData(name: String, filename: String?, contentType: String?,
                        data: UnsafeBufferPointer<UInt8>, offset: UInt64) {
        if offset > 0, formFields.last?.name == name {
            formFields[formFields.count - 1].bytes.append(contentsOf: data)
        } else {
            formFields.append(FormField(name: name, bytes: Array(data), filename: filename, contentType: contentType))
        }
    }

    /// Releases the post processor, delivering any field it still holds; safe to call twice.
    func finish() {
        if let postProcessor { MHD_destroy_post_processor(postProcessor) }
        postProcessor = nil
    }

    /// The request is over: libmicrohttpd has sent the response or dropped the connection.
    func complete() {
        finish()
        // Taken, not read and then cleared: a read retained it for the call.
        lentCopy.take()?.giveBack()
    }
}

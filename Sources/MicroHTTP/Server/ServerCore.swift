import Basics
import CMicroHTTPD
import Logging
import Synchronization

/// The state every libmicrohttpd callback reaches through `cls`: routes, limits and counters.
final class ServerCore: Sendable {
    let router: Router
    let configuration: ServerConfiguration
    let logger: Logger
    let requestIDs = RequestIDGenerator()
    /// Requests between libmicrohttpd's URI callback and its completion notice.
    let inFlight = Atomic<Int>(0)
    /// Cleared when shutdown starts: new connections are then closed as they are accepted.
    let accepting = Atomic<Bool>(true)
    var isAccepting: Bool { accepting.load(ordering: .relaxed) }
    /// Rung when the last request in flight finishes once shutdown has begun.
    let drained = Doorbell()
    let openStreams: OpenStreams
    let owed = OwedResponses()
    let headDeadlines: HeadDeadlines
    let metrics: ServerMetrics

    /// Connection memory kept free for the response's head (the error page's headers take ~600 bytes).
    static let answerReserve = 1536

    init(router: Router, configuration: ServerConfiguration, logger: Logger) {
        self.router = router
        self.configuration = configuration
        self.logger = logger
        let streams = OpenStreams()
        openStreams = streams
        let lateBody = configuration.errorPage.render(ErrorDescription(
            status: .requestTimeout,
            message: "The request body did not arrive within the \(configuration.connectionTimeout) seconds this server waits for it.",
            requestID: "-"))
        headDeadlines = HeadDeadlines(seconds: configuration.connectionTimeout,
                                      connectionLimit: configuration.connectionLimit, logger: logger, lateBody: lateBody,
                                      onSweep: { streams.finishThoseWhosePeerLeft() })
        metrics = ServerMetrics(routes: router.labels)
    }

    func requestStarted() { inFlight.add(1, ordering: .relaxed) }
    /// Sequentially consistent with shutdown's store of `accepting` and load of `inFlight`, so one
    /// of the two sees the other: the finish rings, or shutdown finds nothing in flight. Only a
    /// shutdown waits, so the doorbell's lock stays off the request path.
    func requestFinished() {
        if inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue == 0,
           !accepting.load(ordering: .sequentiallyConsistent) {
            drained.ring()
        }
    }

    /// One call of the access handler. The first call only sees headers: answering then would
    /// make libmicrohttpd close the connection, so it returns and answers once the body is in.
    func access(_ connection: OpaquePointer, _ method: Method, version: UnsafePointer<CChar>?, _ context: RequestState,
                upload: UnsafeBufferPointer<UInt8>?, uploadSize: UnsafeMutablePointer<Int>) -> MHD_Result {
        if !context.headersSeen {
            context.headersSeen = true
            ThreadRequests.removePendingHead(connection)
            headDeadlines.headArrived(context.deadline)
            return begin(connection, method, version: version, context)
        }
        if uploadSize.pointee > 0 {
            if let upload {
                context.receivedBytes += upload.count
                if context.receivedBytes > context.bodyLimit { return refuseLongBody(connection, context) }
                consume(upload, context)
            }
            uploadSize.pointee = 0
            return .YES
        }
        return respond(connection, method, context)
    }

    private func begin(_ connection: OpaquePointer, _ method: Method, version: UnsafePointer<CChar>?,
                       _ context: RequestState) -> MHD_Result {
        // A GET or HEAD with a body is refused below whatever its path: no look-up for the pages.
        context.bodyLimit = method == .get || method == .head ? configuration.bodyLimit
            : configuration.bodyLimit(for: context.rawTarget)
        if context.queryArgumentCount > configuration.queryArgumentLimit {
            logger.notice("too many query arguments", metadata: [
                "request": "\(context.id)", "arguments": "\(context.queryArgumentCount)"])
            let message = "The address is too long: this server accepts at most \(configuration.queryArgumentLimit) "
                + "query arguments, and it has \(context.queryArgumentCount)."
            return queueError(.uriTooLong, message, for: context, on: connection)
        }
        let headSize = dh_request_header_size(connection)
        if headSize > configuration.connectionMemoryLimit - Self.answerReserve {
            // libmicrohttpd builds the response's head in the memory the request's head still fills,
            // and near the pool's size it has none left: it would close without a word.
            logger.notice("request head too large", metadata: ["request": "\(context.id)"])
            context.status = Status.requestHeaderFieldsTooLarge.rawValue
            DirectResponse.send(errorResponse(.requestHeaderFieldsTooLarge, headTooLargeMessage, id: context.id), id: context.id,
                                headOnly: method == .head, on: dh_connection_fd(connection))
            return .NO
        }
        // One pass checks the head and copies the headers the request is read from.
        let (check, copy, kept) = ReceivedHeaders.checked(connection, headStart: context.headStart, headSize: headSize,
                                                          span: configuration.connectionMemoryLimit,
                                                          memory: context.headerMemory.take())
        // Moved in: assigned, each was retained for the state and its binding released at the end.
        context.headers = consume copy
        context.headerMemory = consume kept
        if let problem = RequestFraming.problem(check, on: connection, method: method, version: version) {
            // Answering now, before the body, makes libmicrohttpd close the connection after it.
            logger.notice("bad framing", metadata: ["request": "\(context.id)", "error": "\(problem)"])
            return queueError(.badRequest, problem, for: context, on: connection)
        }
        // The methods' names compared once: a GET, the most common, carries none.
        let carriesBody = method != .get && method.carriesBody
        if carriesBody {
            context.expectsBody = true
            headDeadlines.bodyExpected(context.deadline)
        }
        // A GET or HEAD past the framing check has no length but 0: no look-up.
        if method != .get, method != .head, let length = header(connection, "Content-Length").flatMap({ Int($0) }),
           length > context.bodyLimit {
            // Refused before any of the body is read: libmicrohttpd skips it and closes.
            logger.notice("request body too large", metadata: ["request": "\(context.id)", "bytes": "\(length)"])
            return queueError(.payloadTooLarge, tooLargeMessage(context.bodyLimit), for: context, on: connection)
        }
        if carriesBody, MHD_lookup_connection_value(connection, .HEADER_KIND, StaticString("Transfer-Encoding").cString) != nil {
            // libmicrohttpd may refuse one of its lines itself; the logger then looks for it here.
            context.chunkedBodyArriving = true
            ThreadRequests.chunkedBodies.add(connection, context)
        }
        guard carriesBody, let type = FormType(MHD_lookup_connection_value(connection, .HEADER_KIND,
                                                                          StaticString("Content-Type").cString).map {
            UnsafeRawBufferPointer(start: $0, count: strlen($0)).bindMemory(to: UInt8.self)
        }) else { return .YES }
        if type == .urlEncoded { context.escapes = PercentEscapes() }
        let cls = Unmanaged.passUnretained(context).toOpaque()
        context.postProcessor = MHD_create_post_processor(connection, 16 * 1024, postDataCallback, cls)
        if context.postProcessor == nil { context.formIsMalformed = true }
        return .YES
    }

    private func consume(_ chunk: UnsafeBufferPointer<UInt8>, _ context: RequestState) {
        guard !context.formIsMalformed else { return }
        if let processor = context.postProcessor {
            context.escapes?.check(chunk)
            let accepted = chunk.withMemoryRebound(to: CChar.self) {
                MHD_post_process(processor, $0.baseAddress, $0.count)
            }
            if accepted == .NO { context.formIsMalformed = true }
        } else {
            context.body.append(contentsOf: chunk)
        }
    }

    /// A chunked body past the limit. 0.9.75 takes no response while a body arrives, and would read
    /// this one to its end, however long: the 413 goes to the socket now and libmicrohttpd closes.
    private func refuseLongBody(_ connection: OpaquePointer, _ context: RequestState) -> MHD_Result {
        logger.notice("request body too large", metadata: ["request": "\(context.id)", "bytes": "\(context.receivedBytes)"])
        bodyArrived(connection, context)
        context.status = Status.payloadTooLarge.rawValue
        DirectResponse.send(errorResponse(.payloadTooLarge, tooLargeMessage(context.bodyLimit), id: context.id), id: context.id,
                            on: dh_connection_fd(connection))
        return .NO
    }

    /// The body is in, or refused: none of its lines can be refused by libmicrohttpd now.
    func bodyArrived(_ connection: OpaquePointer, _ context: RequestState) {
        guard context.chunkedBodyArriving else { return }
        context.chunkedBodyArriving = false
        ThreadRequests.chunkedBodies.remove(connection)
    }

    private func respond(_ connection: OpaquePointer, _ method: Method, _ context: RequestState) -> MHD_Result {
        // Answered 408 by the sweeper while the body was late: closed, not answered twice.
        if context.expectsBody {
            context.expectsBody = false
            if !headDeadlines.bodyArrived(context.deadline) { return .NO }
        }
        headDeadlines.requestArrived(context.deadline)
        bodyArrived(connection, context)
        if let pending = context.deferredResponse { return sendDeferred(pending, method: method, for: context, on: connection) }
        // Destroying the post processor flushes a last field it was holding back (`…&empty=`).
        context.finish()
        if context.formIsMalformed || context.escapes?.endsMalformed == true {
            let message = context.escapes?.endsMalformed == true ? PercentEscapes.message : "The form data could not be decoded."
            logger.notice("bad request", metadata: ["request": "\(context.id)", "error": "\(message)"])
            return queueError(.badRequest, message, for: context, on: connection)
        }
        let request: Request
        do {
            request = try RequestReader.read(connection, context, method: method,
                                             trustedProxies: configuration.trustedProxies)
        } catch {
            logger.notice("bad request", metadata: ["request": "\(context.id)", "error": "\(error.message)"])
            return queue(errorResponse(error.status, error.message, id: context.id, target: context.rawTarget), for: context, on: connection)
        }
        var response = dispatch(request, context)
        if request.isHTTPS {
            response.secureForHTTPS()
            context.https = true
        }
        // The response is lent, not copied: a binding or a conditional expression copied it (every
        // reference in it retained and released).
        if response.deferred != nil { return startDeferred(response.deferred!, for: context, on: connection, path: request.path) }
        if method == .head { return queue(HeadResponse.strip(response), for: context, on: connection) }
        return queue(response, for: context, on: connection)
    }

    private func dispatch(_ request: Request, _ context: RequestState) -> Response {
        let (resolution, route) = router.resolveNumbered(request.method, request.pathSegments)
        context.route = route
        switch resolution {
        case .found(let handler, let parameters):
            // A route without parameters (most) gets the request as it is: no copy to write them into.
            guard !parameters.isEmpty else { return run(handler, request) }
            var given = request
            given.parameters = parameters
            return run(handler, given)
        case .methodNotAllowed(let allowed):
            logger.notice("method not allowed", metadata: [
                "request": "\(request.id)", "method": "\(request.method)", "path": "\(request.path)"])
            var response = errorResponse(.methodNotAllowed,
                                         "\(request.path) does not accept \(request.method.rawValue).", id: request.id, request: request)
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            return response
        case .notFound:
            logger.notice("no route", metadata: ["request": "\(request.id)", "path": "\(request.path)"])
            return errorResponse(.notFound, "There is no page at \(request.path).", id: request.id, request: request)
        }
    }

    private func run(_ handler: Handler, _ request: Request) -> Response {
        do {
            return try handler(request)
        } catch {
            return response(for: error, requestID: request.id, path: String(request.path), request: request)
        }
    }

    var tooLargeMessage: String { tooLargeMessage(configuration.bodyLimit) }

    var headTooLargeMessage: String {
        "The request head (its address and headers) is larger than the \(configuration.connectionMemoryLimit - Self.answerReserve) bytes this server accepts."
    }

    func tooLargeMessage(_ limit: Int) -> String {
        "The request body is larger than the \(limit / 1024) KiB this server accepts."
    }

    private func queueError(_ status: Status, _ message: String, for context: RequestState,
                            on connection: OpaquePointer) -> MHD_Result {
        queue(errorResponse(status, message, id: context.id, target: context.rawTarget), for: context, on: connection)
    }

    func errorResponse(_ status: Status, _ message: String, id: String, request: Request? = nil, target: String? = nil) -> Response {
        configuration.errorPage.render(ErrorDescription(status: status, message: message, requestID: id, request: request,
                                                        target: target))
    }

    /// A static name passes its own NUL-terminated bytes to C; a `String` would be copied first.
    func header(_ connection: OpaquePointer, _ name: StaticString) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name.cString).map { String(cString: $0) }
    }
}

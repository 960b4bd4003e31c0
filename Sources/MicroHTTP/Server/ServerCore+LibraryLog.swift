import CMicroHTTPD
import Glibc

extension ServerCore {
    /// The lines libmicrohttpd 0.9.75 logs just before it answers a bad `Content-Length` itself.
    static let lengthRefusals: [(format: StaticString, status: Status)] = [
        ("Failed to parse `Content-Length' header.", .badRequest),
        ("Too large value of 'Content-Length' header.", .payloadTooLarge),
    ]

    /// The line libmicrohttpd 0.9.75 logs before each error response of its own; its first argument
    /// is the status. Its only 500 is a chunked body's line longer than the read buffer.
    static let libraryErrorResponse: StaticString = "Error processing request (HTTP response code is %u"

    /// A line libmicrohttpd is logging: the two before a bad `Content-Length`, and the ones before
    /// its 500 for a chunk-size line too long and its 431 for a head larger than the connection's
    /// memory, answer it first. Its other error responses (a request line too long or that it
    /// cannot parse, an HTTP version it does not speak) reach no handler: logged here, once.
    func libraryLogged(format: UnsafePointer<CChar>, arguments: CVaListPointer) {
        // Set by the line just before (a bad length the server answered): its error line is this one.
        let answered = ThreadRequests.answeredRefusal
        if answered { ThreadRequests.answeredRefusal = false }
        for refusal in Self.lengthRefusals
        where strncmp(format, refusal.format.cString, refusal.format.utf8CodeUnitCount) == 0 {
            if answerBadLength(refusal.status) { ThreadRequests.answeredRefusal = true }
        }
        guard strncmp(format, Self.libraryErrorResponse.cString, Self.libraryErrorResponse.utf8CodeUnitCount) == 0 else {
            return
        }
        let status = Int(dh_first_unsigned_argument(arguments))
        if status == Status.internalServerError.rawValue {
            answerLongChunkLine()
        } else if answered {
            return
        } else if status == Status.requestHeaderFieldsTooLarge.rawValue, answerHeadTooLarge() {
            return
        } else {
            // Nothing of the request in the line: a flood of these is held back by message.
            logger.notice("refused by libmicrohttpd", metadata: ["status": "\(status)", "error": "\(Self.refusalReason(status))"])
        }
    }

    /// What libmicrohttpd 0.9.75 refuses with each status before any callback of ours.
    static func refusalReason(_ status: Int) -> String {
        switch status {
        case 400: "The request line or a header is malformed."
        case 413: "The Content-Length is larger than this server reads."
        case 414: "The request line is longer than the connection's memory."
        case 431: "The request head is larger than the connection's memory."
        case 505: "The HTTP version is not supported."
        default: "libmicrohttpd answered this status itself."
        }
    }

    /// Answers, on this thread, the request whose head libmicrohttpd is refusing for its
    /// `Content-Length`: of those waiting for their first handler call, the one whose head is
    /// whole (libmicrohttpd gives its size only then) and whose first length is not what
    /// libmicrohttpd reads as one (1 to 20 digits within 64 bits).
    /// False when none is found: libmicrohttpd's own answer goes out.
    private func answerBadLength(_ status: Status) -> Bool {
        let heads = ThreadRequests.pendingHeads
        guard let entry = heads.entries.first(where: {
            dh_request_header_size($0.connection) > 0 && !Self.isLength(header($0.connection, "Content-Length"))
        }) else { return false }
        heads.remove(entry.connection)
        let state = entry.state
        let message = status == .payloadTooLarge ? tooLargeMessage : "Content-Length must be a plain decimal number."
        logger.notice("bad framing", metadata: ["request": "\(state.id)", "error": "\(message)"])
        state.status = status.rawValue
        DirectResponse.send(errorResponse(status, message, id: state.id), id: state.id, on: dh_connection_fd(entry.connection))
        return true
    }

    /// Answers, on this thread, the request whose head libmicrohttpd is refusing as larger than the
    /// connection's memory (a long address with a browser's headers, a flood of cookies): its
    /// request line was read, so it waits among the thread's pending heads. Only when it is the
    /// one waiting: with more, which is refused is unknown, and libmicrohttpd's own page goes out.
    /// Its method is not known yet: a `HEAD` gets the page's body too, then the close.
    private func answerHeadTooLarge() -> Bool {
        let heads = ThreadRequests.pendingHeads
        guard heads.entries.count == 1, let entry = heads.entries.first else { return false }
        heads.remove(entry.connection)
        let state = entry.state
        logger.notice("request head too large", metadata: ["request": "\(state.id)"])
        state.status = Status.requestHeaderFieldsTooLarge.rawValue
        DirectResponse.send(errorResponse(.requestHeaderFieldsTooLarge, headTooLargeMessage, id: state.id), id: state.id,
                            on: dh_connection_fd(entry.connection))
        return true
    }

    /// Answers with 400, on this thread, the chunked body whose line filled libmicrohttpd's read
    /// buffer. Nothing tells which of this thread's chunked bodies that is, so with more than one
    /// arriving here at once libmicrohttpd's 500 goes out; browsers send no chunked bodies.
    private func answerLongChunkLine() {
        let bodies = ThreadRequests.chunkedBodies
        guard bodies.entries.count == 1, let entry = bodies.entries.first else {
            logger.notice("a chunk-size line too long, among several chunked bodies: answered 500 by libmicrohttpd",
                          metadata: ["bodies": "\(bodies.entries.count)"])
            return
        }
        bodies.remove(entry.connection)
        let state = entry.state
        state.chunkedBodyArriving = false
        let message = "A chunk-size line of the body (the size and its extensions) is longer than this server reads at once."
        logger.notice("bad framing", metadata: ["request": "\(state.id)", "error": "\(message)"])
        state.status = Status.badRequest.rawValue
        DirectResponse.send(errorResponse(.badRequest, message, id: state.id), id: state.id,
                            on: dh_connection_fd(entry.connection))
    }

    static func isLength(_ value: String?) -> Bool {
        guard let value else { return true }
        return !value.isEmpty && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && UInt64(value) != nil
    }
}

import CMicroHTTPD
import Glibc

extension ServerCore {
    /// The lines libmicrohttpd 0.9.75 logs just before it answers a bad `Content-Length` itself.
    static let lengthRefusals: [(format: StaticString, status: Status)] = [
        ("Failed to parse `Content-Length' header.", .badRequest),
        ("Too large value of 'Content-Length' header.", .payloadTooLarge),
    ]

    /// A line libmicrohttpd is logging: the two before a bad `Content-Length` answer it first.
    func libraryLogged(format: UnsafePointer<CChar>) {
        for refusal in Self.lengthRefusals
        where strncmp(format, refusal.format.cString, refusal.format.utf8CodeUnitCount) == 0 {
            answerBadLength(refusal.status)
        }
    }

    /// Answers, on this thread, the request whose head libmicrohttpd is refusing for its
    /// `Content-Length`: of those waiting for their first handler call, the one whose head is
    /// whole (libmicrohttpd gives its size only then) and whose first length is not what
    /// libmicrohttpd reads as one (1 to 20 digits within 64 bits).
    private func answerBadLength(_ status: Status) {
        let heads = PendingHeads.current
        guard let entry = heads.entries.first(where: {
            dh_request_header_size($0.connection) > 0 && !Self.isLength(header($0.connection, "Content-Length"))
        }) else { return }
        heads.remove(entry.connection)
        let state = entry.state
        let message = status == .payloadTooLarge ? tooLargeMessage : "Content-Length must be a plain decimal number."
        logger.notice("bad framing", metadata: ["request": "\(state.id)", "error": "\(message)"])
        state.status = status.rawValue
        DirectAnswer.send(errorResponse(status, message, id: state.id), id: state.id, on: dh_connection_fd(entry.connection))
    }

    static func isLength(_ value: String?) -> Bool {
        guard let value else { return true }
        return !value.isEmpty && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && UInt64(value) != nil
    }
}

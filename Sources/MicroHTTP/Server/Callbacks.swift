import CMicroHTTPD
import Glibc

// libmicrohttpd calls these from its own threads. They are plain functions in a non-main file
// so they carry no actor isolation; `cls` is the retained ServerCore, `con_cls` the retained
// RequestState taken in `uriLogCallback` and given back in `requestCompletedCallback`, and the
// socket context the retained OpenConnection, made and released in `connectionNotifyCallback`.
// The core is borrowed (`_withUnsafeGuaranteedRef`), not retained: every thread would otherwise
// write its one shared reference count several times per request.

func uriLogCallback(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?,
                    _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    // Validated, not repaired: raw bytes that are not UTF-8 must fail the request, not become U+FFFD.
    var rawTarget = uri.flatMap { String(validatingCString: $0) }
    // After the copy: libmicrohttpd keeps the target without its query.
    let arguments = uri.map(QueryTakeover.take) ?? 0
    let context = Unmanaged<ServerCore>.fromOpaque(cls!)._withUnsafeGuaranteedRef { core in
        core.requestStarted()
        // The connection's state from its last request, when it has one.
        let open = connection.flatMap(dh_socket_context).map { Unmanaged<OpenConnection>.fromOpaque($0) }
        let state = open?._withUnsafeGuaranteedRef { $0.take() } ?? RequestState()
        // Moved into the state: a copy was retained here and released on return.
        state.start(rawTarget: rawTarget.take(), queryArgumentCount: arguments, id: core.requestIDs.next())
        if core.configuration.metrics { state.startedAt = ServerMetrics.now() }
        if let connection { ThreadRequests.addPendingHead(connection, state) }
        return state
    }
    return Unmanaged.passRetained(context).toOpaque()
}

func accessHandlerCallback(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                           _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                           _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                           _ uploadDataSize: UnsafeMutablePointer<Int>?,
                           _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let cls, let connection, let method, let uploadDataSize, let raw = conCls?.pointee else {
        return .NO
    }
    let bytes = uploadData.map {
        UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: uploadDataSize.pointee)
    }
    return Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
        Unmanaged<RequestState>.fromOpaque(raw)._withUnsafeGuaranteedRef { context in
            if !context.headersSeen { context.headStart = method }
            return core.access(connection, Method(cString: method), version: version, context,
                               upload: bytes, uploadSize: uploadDataSize)
        }
    }
}

func requestCompletedCallback(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                              _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                              _ termination: MHD_RequestTerminationCode) {
    guard let cls, let raw = conCls?.pointee else { return }
    conCls?.pointee = nil
    // A constant until it is given back: methods called on a variable, and closures reading it,
    // retained it for each call and released it after.
    let context = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    if !context.headersSeen, let connection { ThreadRequests.removePendingHead(connection) }
    context.complete()
    Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
        if let connection { core.bodyArrived(connection, context) }
        if core.configuration.metrics {
            // No answer of ours: libmicrohttpd's own (a malformed chunk), or none (ServerMetrics).
            if context.status == 0, let connection { context.status = Int(dh_connection_http_status(connection)) }
            core.metrics.record(route: context.route, status: context.status, startedAt: context.startedAt, bytes: context.bytesOut)
        }
        core.headDeadlines.answered(context.deadline)
        core.requestFinished()
    }
    guard let owner = context.owner else { return }
    var returned = consume context
    owner._withUnsafeGuaranteedRef { $0.giveBack(&returned) }
}

func acceptPolicyCallback(_ cls: UnsafeMutableRawPointer?, _ address: UnsafePointer<sockaddr>?,
                          _ length: socklen_t) -> MHD_Result {
    guard let cls else { return .NO }
    return Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.isAccepting } ? .YES : .NO
}

func connectionNotifyCallback(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                              _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                              _ code: MHD_ConnectionNotificationCode) {
    guard let cls, let connection, let socketContext else { return }
    Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
        let counting = core.configuration.metrics
        if code == .CONNECTION_NOTIFY_STARTED {
            if counting { core.metrics.openConnections.add(1, ordering: .relaxed) }
            let open = OpenConnection(deadline: core.headDeadlines.opened(connection))
            socketContext.pointee = Unmanaged.passRetained(open).toOpaque()
        } else {
            if counting { core.metrics.openConnections.subtract(1, ordering: .relaxed) }
            guard let raw = socketContext.pointee else { return }
            socketContext.pointee = nil
            let open = Unmanaged<OpenConnection>.fromOpaque(raw).takeRetainedValue()
            if let deadline = open.deadline { core.headDeadlines.closed(deadline) }
        }
    }
}

func postDataCallback(_ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
                      _ filename: UnsafePointer<CChar>?, _ contentType: UnsafePointer<CChar>?,
                      _ transferEncoding: UnsafePointer<CChar>?, _ data: UnsafePointer<CChar>?,
                      _ offset: UInt64, _ size: Int) -> MHD_Result {
    guard let cls, let key else { return .NO }
    let context = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    let chunk = UnsafeBufferPointer(
        start: data.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }, count: data == nil ? 0 : size)
    context.appendFormData(name: String(cString: key), filename: filename.map { String(cString: $0) },
                           contentType: contentType.map { String(cString: $0) }, data: chunk, offset: offset)
    return .YES
}

/// Releases the body a response was created from, once libmicrohttpd has sent it.
func releaseBodyCallback(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<ResponseBytes>.fromOpaque(cls).release()
}

/// Frees a buffer the server filled with `malloc` (a spliced body), once libmicrohttpd has sent it.
func freeBufferCallback(_ buffer: UnsafeMutableRawPointer?) {
    free(buffer)
}

/// Pulls the next bytes of a `ResponseStream`; -1 ends the response.
func streamReaderCallback(_ cls: UnsafeMutableRawPointer?, _ position: UInt64,
                          _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return -1 }
    let stream = Unmanaged<ResponseStream>.fromOpaque(cls).takeUnretainedValue()
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
}

/// libmicrohttpd is done with a stream's response: the client has it all or went away.
func streamFreeCallback(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let stream = Unmanaged<ResponseStream>.fromOpaque(cls).takeRetainedValue()
    stream.close()
}

/// Pulls the next chunk of a `ChunkedBody`; an empty chunk is skipped, nil ends the response
/// (cut short, without the zero chunk, when the body says it failed).
func chunkReaderCallback(_ cls: UnsafeMutableRawPointer?, _ position: UInt64,
                         _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return -1 }
    let box = Unmanaged<ChunkedBodyBox>.fromOpaque(cls).takeUnretainedValue()
    func send(_ bytes: ArraySlice<UInt8>) -> Int {
        let count = min(bytes.count, capacity)
        bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: count) }
        box.pending = bytes.dropFirst(count)
        return count
    }
    if !box.pending.isEmpty { return send(box.pending) }
    while let chunk = box.body.next(capacity) {
        guard !chunk.isEmpty else { continue }
        return send(chunk[...])
    }
    // MHD_CONTENT_READER_END_OF_STREAM (-1) ends cleanly; END_WITH_ERROR (-2) closes without the
    // zero chunk, and the shutdown makes the client see that now rather than at the next wake-up.
    guard box.body.failed() else { return -1 }
    if box.descriptor >= 0 { shutdown(box.descriptor, Int32(SHUT_RDWR)) }
    return -2
}

func chunkFreeCallback(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<ChunkedBodyBox>.fromOpaque(cls).takeRetainedValue().body.close()
}

/// libmicrohttpd's own messages (with `MHD_USE_ERROR_LOG`), on the thread that logged them. Most say
/// a client misbehaved: debug lines, formatted only when those are written.
func libraryLogCallback(_ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let cls, let format, let arguments else { return }
    Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
        core.libraryLogged(format: format, arguments: arguments)
        guard core.logger.logLevel <= .debug else { return }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        }
        let message = String(decoding: buffer.prefix(max(0, min(Int(count), buffer.count - 1))), as: UTF8.self)
        core.logger.debug("libmicrohttpd", metadata: ["message": "\(message)"])
    }
}

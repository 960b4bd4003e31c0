import Glibc

/// Sends one request on the keep-alive connection (reconnecting when the server closed it) and
/// returns the response's status; nil when the server closed a fresh connection without answering.
/// Silence (no response and no close within 10 s) traps.
///
/// Every blocking call here may be interrupted: libFuzzer's `-timeout` arms a SIGALRM every
/// timeout/2 + 1 seconds (11 s with the script's 20) with a handler installed without
/// SA_RESTART, and the signal lands on whichever thread is not blocking it, often this one.
/// An interrupted `connect`, `send`, `poll` or `recv` returns EINTR; that is retried, never taken
/// for a refused connection or a close (it once stopped a run with "cannot connect").
func exchange(_ request: [UInt8]) -> Int? {
    for attempt in 0..<2 {
        if descriptor < 0 { descriptor = connectToServer() }
        history.sent(request)
        let sent = sendAll(request)
        if sent, let (status, keepAlive) = readResponse() {
            history.outcome("\(status)\(keepAlive ? "" : " close")")
            if !keepAlive { reset() }
            return status
        }
        history.outcome(sent ? "closed" : "send failed")
        reset()
        // The first failure may be a keep-alive connection the server had just closed.
        if attempt == 1 { return nil }
    }
    fatalError("unreachable")
}

/// `precondition` with its message on standard error first: the script turns Swift's backtracer
/// off, and libFuzzer's log keeps only its own stack trace. errno is that of the last call.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    let code = errno
    let reason = code == 0 ? "" : " (last errno \(code): \(String(cString: strerror(code))))"
    let line = Array("Precondition failed: \(message())\(reason)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    history.save()
    fatalError(message())
}

/// The last requests sent, with their connection and outcome, written on a failure to
/// `$FUZZ_HISTORY` (default `.build-fuzz/artifacts/RequestDecoding-history`): one line each,
/// `connection outcome hex-of-request`, oldest first, for a replay of the exact sequence.
nonisolated(unsafe) var history = History()

struct History {
    private var entries: [(connection: Int, request: [UInt8], outcome: String)] = []
    private var connection = 0

    mutating func connected() { connection += 1 }

    mutating func sent(_ request: [UInt8]) {
        if entries.count == 256 { entries.removeFirst(128) }
        entries.append((connection, request, "pending"))
    }

    mutating func outcome(_ text: String) { entries[entries.count - 1].outcome = text }

    func save() {
        let path = getenv("FUZZ_HISTORY").map { String(cString: $0) } ?? ".build-fuzz/artifacts/RequestDecoding-history"
        var text = ""
        for entry in entries {
            let hex = entry.request.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            text += "\(entry.connection) \(entry.outcome.split(separator: " ").joined(separator: "-")) \(hex.joined())\n"
        }
        guard let file = fopen(path, "w") else { return }
        fputs(text, file)
        fclose(file)
    }
}

private func reset() {
    close(descriptor)
    descriptor = -1
}

/// The whole request, resuming after an interruption or a partial send; false when the server
/// had closed the connection (EPIPE, ECONNRESET).
private func sendAll(_ request: [UInt8]) -> Bool {
    var offset = 0
    while offset < request.count {
        let sent = request.withUnsafeBytes {
            send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
        }
        if sent < 0 && errno == EINTR { continue }
        guard sent > 0 else { return false }
        offset += sent
    }
    return true
}

/// Waits until the connection is readable (or writable), through interruptions; false after
/// `seconds` without it.
private func wait(_ socketDescriptor: Int32, for events: Int32, seconds: Int) -> Bool {
    let deadline = monotonicMilliseconds() + seconds * 1000
    while true {
        var entry = pollfd(fd: socketDescriptor, events: Int16(events), revents: 0)
        let remaining = max(0, deadline - monotonicMilliseconds())
        let ready = poll(&entry, 1, Int32(remaining))
        if ready > 0 { return true }
        if ready == 0 { return false }
        check(errno == EINTR, "poll failed")
    }
}

private func monotonicMilliseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
}

private func connectToServer() -> Int32 {
    let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    check(socketDescriptor >= 0, "no socket")
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = server.port!.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    if connected != 0 && errno == EINTR {
        // The handshake goes on without us: wait for it and read its result.
        check(wait(socketDescriptor, for: Int32(POLLOUT), seconds: 10), "no connection within 10 s")
        var failure: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socketDescriptor, SOL_SOCKET, SO_ERROR, &failure, &size)
        errno = failure
        check(failure == 0, "cannot connect to the server after an interrupted connect")
    } else {
        check(connected == 0, "cannot connect to the server")
    }
    history.connected()
    return socketDescriptor
}

/// The status and whether the connection stays open; nil when it closed before a whole response.
private func readResponse() -> (Int, Bool)? {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16384)
    func fill() -> Bool {
        check(wait(descriptor, for: Int32(POLLIN), seconds: 10), "no answer within 10 s")
        var count = 0
        repeat {
            count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        } while count < 0 && errno == EINTR
        // 0: closed; -1: reset (ECONNRESET), also a close.
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }
    let marker: [UInt8] = [13, 10, 13, 10]
    var headEnd: Int?
    while headEnd == nil {
        guard fill() else { return nil }
        headEnd = buffer.indices.dropLast(3).first { buffer[$0..<$0 + 4].elementsEqual(marker) }
    }
    let head = String(decoding: buffer[..<headEnd!], as: UTF8.self).lowercased()
    let statusText = head.split(separator: " ").dropFirst().first ?? ""
    guard let status = Int(statusText) else { return nil }
    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
        .flatMap { Int($0.dropFirst(15).trimmingPrefix(" ")) } ?? 0
    while buffer.count < headEnd! + 4 + length {
        guard fill() else { return nil }
    }
    return (status, !head.contains("connection: close"))
}

import Glibc

/// Sends one request on the keep-alive connection (reconnecting when the server closed it) and
/// returns the answer's status; nil when the server closed a fresh connection without answering.
/// Silence (no answer and no close within 10 s) traps.
func exchange(_ request: [UInt8]) -> Int? {
    for attempt in 0..<2 {
        if descriptor < 0 { descriptor = connectToServer() }
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent == request.count, let (status, keepAlive) = readResponse() {
            if !keepAlive { reset() }
            return status
        }
        reset()
        // The first failure may be a keep-alive connection the server had just closed.
        if attempt == 1 { return nil }
    }
    fatalError("unreachable")
}

private func reset() {
    close(descriptor)
    descriptor = -1
}

private func connectToServer() -> Int32 {
    let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = server.port!.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    precondition(connected == 0, "cannot connect to the server")
    return socketDescriptor
}

/// The status and whether the connection stays open; nil when it closed before a whole answer.
private func readResponse() -> (Int, Bool)? {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16384)
    func fill() -> Bool {
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        precondition(count >= 0 || errno != EAGAIN, "no answer within 10 s")
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

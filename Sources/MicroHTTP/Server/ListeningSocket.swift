import Glibc

/// Binds the listening socket before libmicrohttpd starts, so a bind failure is reported with
/// its real cause (port in use, address not on this machine) instead of a bare NULL daemon.
enum ListeningSocket {
    static func open(host: String, port: UInt16) throws(ServerError) -> (descriptor: Int32, port: UInt16, isIPv6: Bool) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = host == "localhost" ? AI_PASSIVE : AI_NUMERICHOST | AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let info = list else {
            throw .invalidHost(host)
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .bindFailed(host: host, port: port, reason: lastError()) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0,
              listen(descriptor, 1024) == 0 else {
            let reason = errno == EADDRINUSE ? "the port is already in use" : lastError()
            close(descriptor)
            throw .bindFailed(host: host, port: port, reason: reason)
        }
        return (descriptor, boundPort(descriptor), info.pointee.ai_family == AF_INET6)
    }

    private static func boundPort(_ descriptor: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
        }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

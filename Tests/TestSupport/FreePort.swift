import Foundation

/// A loopback TCP port free right now: bound to port 0, read back, released. For servers the
/// tests start that cannot report the port they picked themselves (PostgreSQL, nginx).
public enum FreePort {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public static func find() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Int32 in
                guard bind(fd, raw, length) == 0 else { return -1 }
                return getsockname(fd, raw, &length)
            }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }
}

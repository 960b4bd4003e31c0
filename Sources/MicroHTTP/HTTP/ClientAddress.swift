import Glibc

/// The client's IP address, kept as the bytes the socket reported and written as text only
/// when someone asks: most requests never do.
struct ClientAddress: Sendable {
    private enum Storage: Sendable {
        case text(String)
        case ipv4(UInt32)
        case ipv6(UInt64, UInt64)
    }

    private let storage: Storage

    init(text: String) { storage = .text(text) }

    /// Copies the address out of `address`; nil (or another family) is the empty address.
    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else { storage = .text(""); return }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            storage = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .ipv4($0.pointee.sin_addr.s_addr) }
        case AF_INET6:
            storage = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin6_addr) {
                    .ipv6($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                }
            }
        default:
            storage = .text("")
        }
    }

    /// 127.0.0.0/8, ::1 or an IPv4-mapped 127.x address: the peer is on this machine.
    var isLoopback: Bool {
        switch storage {
        case .text(let text):
            return text.hasPrefix("127.") || text == "::1" || text.hasPrefix("::ffff:127.")
        case .ipv4(let raw):
            return UInt32(bigEndian: raw) >> 24 == 127
        case .ipv6(let high, let low):
            // In network order: ::1 ends in 0x01, ::ffff:127.x.y.z ends in ffff 7f xx xx xx.
            let word = UInt64(bigEndian: low)
            return high == 0 && (word == 1 || word >> 24 == 0xFFFF_7F)
        }
    }

    /// The client as a number, for per-client tables: an IPv4 address whole, an IPv6 one by its
    /// /64 (one subscriber's network), written text by its hash. No formatting, no allocation.
    var key: UInt64 {
        switch storage {
        case .text(let text): UInt64(bitPattern: Int64(text.hashValue))
        case .ipv4(let raw): UInt64(raw)
        case .ipv6(let high, _): high
        }
    }

    var text: String {
        switch storage {
        case .text(let text): text
        case .ipv4(var raw): Self.format(AF_INET, &raw)
        case .ipv6(let high, let low):
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2) { words in
                words[0] = high
                words[1] = low
                return Self.format(AF_INET6, words.baseAddress!)
            }
        }
    }

    private static func format(_ family: Int32, _ bytes: UnsafeRawPointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            guard inet_ntop(family, bytes, buffer.baseAddress, socklen_t(buffer.count)) != nil else { return "" }
            return String(cString: buffer.baseAddress!)
        }
    }
}

import Basics
import Glibc

/// The proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed (`--trusted-proxy`).
/// From anyone else the headers are ignored: a client could otherwise pick its own address
/// (and dodge per-address limits) or claim HTTPS.
public struct TrustedProxies: Sendable {
    /// The addresses in canonical text (as `inet_ntop` writes them).
    public let addresses: Set<String>

    /// Why an address was refused.
    public struct InvalidAddress: Error, CustomStringConvertible {
        public let address: String
        public var description: String { "\(address) is not an IPv4 or IPv6 address" }
    }

    public init(_ addresses: [String] = []) throws(InvalidAddress) {
        var canonical = Set<String>()
        for address in addresses {
            guard let text = Self.canonical(address) else { throw InvalidAddress(address: address) }
            canonical.insert(text)
        }
        self.addresses = canonical
    }

    public var isEmpty: Bool { addresses.isEmpty }

    /// The client and scheme a request came with from a trusted peer: the last address in
    /// `X-Forwarded-For` that is not itself a trusted proxy, and `X-Forwarded-Proto`. Nil when
    /// the peer is not a trusted proxy.
    func resolve(peer: String, headers: Headers) -> (client: String?, https: Bool)? {
        guard !addresses.isEmpty, addresses.contains(peer) else { return nil }
        var client: String?
        let hops = headers.values("X-Forwarded-For").flatMap { $0.split(separator: ",") }
            .map { $0.trimming(while: Self.isBlank) }
        for hop in hops.reversed() {
            guard let text = Self.canonical(hop) else { break }  // garbage: stop believing
            client = text
            if !addresses.contains(text) { break }
        }
        let proto = headers["X-Forwarded-Proto"]?.split(separator: ",").last.map { $0.trimming(while: Self.isBlank).lowercased() }
        return (client, proto == "https")
    }

    /// The optional white space around a list element (RFC 9110's OWS).
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    static func canonical(_ text: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return format(AF_INET, &v4) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return format(AF_INET6, &v6) }
        return nil
    }

    private static func format(_ family: Int32, _ bytes: UnsafeRawPointer) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            guard inet_ntop(family, bytes, buffer.baseAddress, socklen_t(buffer.count)) != nil else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }
}

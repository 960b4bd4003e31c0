import Glibc
import Testing
import TestSupport
@testable import MicroHTTP

/// The client address is kept as socket bytes and written as text only when a handler asks.
@Suite struct ClientAddressTests {
    @Test func ipv4BytesReadAsDottedQuads() {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "10.1.2.3", &address.sin_addr)
        #expect(Self.text(of: &address) == "10.1.2.3")
    }

    @Test func ipv6BytesReadInTheirShortForm() {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        inet_pton(AF_INET6, "2001:db8::7", &address.sin6_addr)
        #expect(Self.text(of: &address) == "2001:db8::7")
    }

    /// What `ClientAddress` makes of a socket address of either family.
    static func text<Address>(of address: inout Address) -> String {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0).text }
        }
    }

    @Test(arguments: [("127.0.0.1", true), ("127.9.8.7", true), ("128.0.0.1", false), ("10.0.0.1", false),
                      ("::1", true), ("::2", false), ("::ffff:127.0.0.5", true), ("::ffff:10.0.0.1", false), ("2001:db8::1", false)])
    func loopbackIsToldFromTheSocketBytes(text: String, loopback: Bool) {
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        let found: Bool
        if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            found = withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0).isLoopback } }
        } else {
            #expect(inet_pton(AF_INET6, text, &v6.sin6_addr) == 1)
            v6.sin6_family = sa_family_t(AF_INET6)
            found = withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0).isLoopback } }
        }
        #expect(found == loopback, "\(text)")
        #expect(ClientAddress(text: text).isLoopback == loopback, "\(text) as text")
    }

    @Test func noAddressIsEmpty() {
        #expect(ClientAddress(nil).text == "")
    }

    @Test func aHandlerSeesTheLoopbackClient() throws {
        var router = Router()
        router.get("/whoami") { request in .text(request.remoteAddress) }
        let server = try TestServer(router: router)
        #expect(try server.client.get("/whoami").text == "127.0.0.1")
    }
}

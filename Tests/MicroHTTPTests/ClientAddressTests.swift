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

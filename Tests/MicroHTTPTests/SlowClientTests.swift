import Testing
import TestSupport
@testable import MicroHTTP

/// A client that trickles its request head is closed by the connection timeout even though it
/// is never idle for that long; other clients are served meanwhile.
@Suite struct SlowClientTests {
    @Test func aTrickledHeadIsClosedAfterTheConnectionTimeout() throws {
        let local = try TestServer(router: ServerTests.echoRouter()) { $0.connectionTimeout = 2 }
        let slow = try HTTPConnection(port: local.port, timeoutSeconds: 1)
        let head = Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "a", count: 30))".utf8)
        var closed = false
        // One byte, then up to a second waiting for end-of-file: never idle for the 2 s timeout.
        for byte in head where !closed {
            guard (try? slow.send([byte])) != nil else { closed = true; break }
            closed = slow.isClosedByPeer()
        }
        // Without head deadlines the connection stays open: no gap between bytes reaches the
        // idle timeout. (On a stalled machine the idle timeout may close it first, so the test
        // does not insist on which of the two did.)
        #expect(closed)
        #expect(local.server.lateHeadsClosed <= 1)
        #expect(try local.client.get("/hello?name=next").text == "<p>hello next</p>")
    }

    @Test func aKeepAliveConnectionIsNotClosedWhileItsRequestsArriveInTime() throws {
        let local = try TestServer(router: ServerTests.echoRouter()) { $0.connectionTimeout = 2 }
        let connection = try HTTPConnection(port: local.port, timeoutSeconds: 1)
        for index in 0..<4 {
            #expect(try connection.request("GET", "/hello?name=\(index)").status == 200)
            #expect(!connection.isClosedByPeer())  // a second's pause between requests
        }
        #expect(local.server.lateHeadsClosed == 0)
    }
}

import Glibc
import Synchronization
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

    @Test func aTrickledBodyIsClosedAfterTheConnectionTimeout() throws {
        let local = try TestServer(router: ServerTests.echoRouter()) { $0.connectionTimeout = 2 }
        let slow = try HTTPConnection(port: local.port, timeoutSeconds: 1)
        try slow.send("POST /raw HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n")
        var closed = false
        // A byte, then up to a second waiting for end-of-file: never idle for the 2 s timeout.
        for _ in 0..<20 where !closed {
            guard (try? slow.send([0x61])) != nil else { closed = true; break }
            closed = slow.isClosedByPeer()
        }
        #expect(closed, "a body trickled for 20 s was never cut off")
        #expect(try local.client.get("/hello?name=next").text == "<p>hello next</p>")
    }

    @Test func idleKeepAliveConnectionsAreClosedWhenSlotsRunShort() throws {
        // 20 slots: past 15 open, idle keep-alive ones are reclaimed; the timeout alone would take 30 s.
        let local = try TestServer(router: ServerTests.echoRouter()) {
            $0.connectionTimeout = 30
            $0.connectionLimit = 20
            $0.perIPConnectionLimit = 0
        }
        let idle = try (0..<18).map { index in
            let connection = try HTTPConnection(port: local.port, timeoutSeconds: 3)
            #expect(try connection.request("GET", "/hello?name=\(index)").status == 200)
            return connection
        }
        let closed = idle.filter { $0.isClosedByPeer() }.count
        #expect(closed >= 3, "\(closed) of 18 idle connections closed")
        #expect(local.server.idleConnectionsReclaimed >= 3, "reclaimed \(local.server.idleConnectionsReclaimed), late \(local.server.lateHeadsClosed), closed \(closed)")
        #expect(try local.client.get("/hello?name=new").status == 200)
    }

    @Test func aStreamNoticesItsClientLeftWithoutWritingToIt() throws {
        let streams = Mutex<[ResponseStream]>([])
        var router = Router()
        router.get("/events") { _ in
            let stream = ResponseStream()
            stream.write(Array(": hello\n\n".utf8))
            streams.withLock { $0.append(stream) }
            return Response(headers: Headers([("Content-Type", "text/event-stream")]), body: .stream(stream))
        }
        let local = try TestServer(router: router)
        var connection: HTTPConnection? = try HTTPConnection(port: local.port)
        try connection?.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try connection?.readStreamHead()
        _ = try connection?.readChunk()
        let stream = try #require(streams.withLock { $0.first })
        connection = nil  // closes the socket; nothing is ever written to the stream again
        try eventually("the stream let go of its connection once the client left", timeout: 5) { stream.isClosed }
    }
}

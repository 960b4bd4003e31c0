import Foundation
import Synchronization
import Testing
import TestSupport
@testable import MicroHTTP

/// Streaming responses over the real server: written from another thread, sent as they come.
@Suite struct ResponseStreamTests {
    /// The streams the route has handed out, so the test can write to them.
    final class Streams: Sendable {
        let all = Mutex<[ResponseStream]>([])
        var latest: ResponseStream? { all.withLock { $0.last } }
    }

    let streams = Streams()
    let server: TestServer

    init() throws {
        var router = Router()
        router.get("/events") { [streams] _ in
            let stream = ResponseStream()
            streams.all.withLock { $0.append(stream) }
            return Response(headers: Headers([("Content-Type", "text/event-stream")]), body: .stream(stream))
        }
        router.get("/healthz") { _ in .text("ok") }
        server = try TestServer(router: router)
    }

    func openStream() throws -> (HTTPConnection, ResponseStream) {
        let connection = try HTTPConnection(port: server.port)
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try connection.readStreamHead()
        #expect(head.status == 200)
        #expect(head.header("Transfer-Encoding") == "chunked")
        try eventually("the route handed out its stream") { streams.latest != nil }
        return (connection, try #require(streams.latest))
    }

    @Test func bytesWrittenLaterReachTheClientAsTheyCome() throws {
        let (connection, stream) = try openStream()
        for index in 0..<3 {
            try eventually("the connection sleeps until the write") { stream.isSuspended }
            stream.write(Array("data: \(index)\n\n".utf8))
            #expect(try connection.readChunk().map { String(decoding: $0, as: UTF8.self) } == "data: \(index)\n\n")
        }
        stream.finish()
        #expect(try connection.readChunk() == nil)
        #expect(try HTTPClient(port: server.port).get("/healthz").status == 200)
    }

    @Test func aClientThatLeavesClosesTheStream() throws {
        var (connection, stream) = try openStream()
        let closed = Mutex(false)
        stream.onClose { closed.withLock { $0 = true } }
        stream.write(Array("hello".utf8))
        _ = try connection.readChunk()
        connection = try HTTPConnection(port: server.port)  // drops the first connection
        try eventually("the stream closed") {
            stream.write(Array(": heartbeat\n\n".utf8))  // a write is how a suspended stream notices
            return closed.withLock { $0 }
        }
        #expect(stream.isClosed)
        #expect(!stream.write([1]))
    }

    @Test func shutdownEndsIdleStreams() throws {
        let (connection, _) = try openStream()
        let started = ContinuousClock.now
        server.server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try connection.readChunk() == nil)
        #expect(server.server.requestsInFlight == 0)
    }
}

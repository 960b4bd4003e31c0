import Foundation
import Synchronization
import Testing
import TestSupport
@testable import MicroHTTP

/// `HEAD` on a route whose `GET` body is chunked or streamed sends no body bytes at all, so the
/// next response on the same connection is read as sent.
@Suite struct HeadOnChunkedRoutesTests {
    final class Closed: Sendable { let count = Atomic<Int>(0) }

    @Test func headOnChunkedAndStreamedRoutesLeavesTheConnectionClean() throws {
        let closed = Closed()
        var router = Router()
        router.get("/chunks") { _ in
            let left = Mutex(2)
            let body = ChunkedBody(next: { _ in left.withLock { left in
                defer { left -= 1 }
                return left > 0 ? Array("line\n".utf8) : nil
            } }, close: { closed.count.add(1, ordering: .relaxed) })
            return Response(headers: Headers([("Content-Type", "text/plain")]), body: .chunks(body))
        }
        router.get("/stream") { _ in
            let stream = ResponseStream()
            stream.write(Array("data: x\n\n".utf8))
            stream.onClose { closed.count.add(1, ordering: .relaxed) }
            return Response(headers: Headers([("Content-Type", "text/event-stream")]), body: .stream(stream))
        }
        router.get("/healthz") { _ in .text("ok") }
        let server = try TestServer(router: router)
        let connection = try HTTPConnection(port: server.port)
        for path in ["/chunks", "/stream", "/chunks"] {
            let head = try connection.request("HEAD", path)
            #expect(head.status == 200, "\(path)")
            let next = try connection.request("GET", "/healthz")
            #expect(next.status == 200, "after HEAD \(path)")
            #expect(next.text == "ok")
        }
        #expect(closed.count.load(ordering: .relaxed) == 3, "every unsent body was closed")
    }
}

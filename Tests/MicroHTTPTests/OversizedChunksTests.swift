import Foundation
import Synchronization
import Testing
import TestSupport
@testable import MicroHTTP

/// A `ChunkedBody` may hand back more than the server's buffer holds (a reader returns whole lines):
/// every byte is still sent, in order, none dropped.
@Suite struct OversizedChunksTests {
    @Test func chunksLongerThanAskedAreSentWhole() throws {
        // Three chunks of 100,000 bytes, each far beyond libmicrohttpd's buffer, numbered lines.
        let chunks = (0..<3).map { chunk in
            Array((0..<10_000).map { String(format: "%09d\n", chunk * 10_000 + $0) }.joined().utf8)
        }
        let asked = Mutex<[Int]>([])
        var router = Router()
        router.get("/big") { _ in
            let next = Mutex(0)
            let body = ChunkedBody(next: { maxBytes in
                asked.withLock { $0.append(maxBytes) }
                return next.withLock { index in
                    defer { index += 1 }
                    return index < chunks.count ? chunks[index] : nil
                }
            })
            return Response(headers: Headers([("Content-Type", "text/plain")]), body: .chunks(body))
        }
        let server = try TestServer(router: router)
        let connection = try HTTPConnection(port: server.port)
        let response = try connection.request("GET", "/big")
        #expect(response.status == 200)
        #expect(asked.withLock { $0.allSatisfy { $0 < 100_000 } }, "the server asked for less than a chunk")
        #expect(response.body.count == 300_000)
        #expect(response.body.elementsEqual(chunks.joined()), "every byte, in order")
    }
}

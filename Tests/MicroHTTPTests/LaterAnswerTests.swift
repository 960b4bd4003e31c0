import Foundation
import Synchronization
import Testing
import TestSupport
@testable import MicroHTTP

/// `Response.later` over the real server: the connection waits suspended, holding no thread,
/// and is answered from whichever thread has the answer.
@Suite struct LaterAnswerTests {
    /// Replies the routes handed out and have not answered, for the test to answer.
    final class Waiting: Sendable {
        let replies = Mutex<[Reply]>([])
        func take(count: Int = 1) throws -> [Reply] {
            try eventually("\(count) replies handed out") { replies.withLock { $0.count } >= count }
            return replies.withLock { replies in defer { replies = [] }; return replies }
        }
    }

    let waiting = Waiting()
    let server: TestServer

    init() throws {
        var router = Router()
        router.get("/held") { [waiting] _ in .later { reply in waiting.replies.withLock { $0.append(reply) } } }
        router.get("/thread/:text") { request in
            let text = request.parameters["text"]!
            return .later { reply in
                // The delay is the subject: the answer comes after the handler has returned.
                Thread { Thread.sleep(forTimeInterval: 0.02); reply(.text(text)) }.start()
            }
        }
        router.get("/atonce") { _ in .later { reply in reply(.text("at once")) } }
        router.get("/twice") { _ in .later { reply in reply(.text("first")); reply(.text("second")) } }
        router.get("/refused") { _ in
            .later { reply in Thread { reply.run { throw HTTPError(.badRequest, "No such report.") } }.start() }
        }
        router.post("/echo") { request in
            let body = request.body
            return .later { reply in Thread { reply(Response(body: .bytes(body.reversed()))) }.start() }
        }
        router.get("/healthz") { _ in .text("ok") }
        server = try TestServer(router: router) {
            $0.threads = 1
            $0.shutdownGracePeriod = .milliseconds(500)
        }
    }

    @Test func anAnswerFromAnotherThreadIsSent() throws {
        let response = try server.client.get("/thread/hello")
        #expect(response.status == 200)
        #expect(response.text == "hello")
        #expect(response.header("X-Request-Id") != nil)
    }

    @Test func anAnswerGivenBeforeTheHandlerReturnsIsSent() throws {
        #expect(try server.client.get("/atonce").text == "at once")
    }

    @Test func onlyTheFirstAnswerCounts() throws {
        let connection = try HTTPConnection(port: server.port)
        #expect(try connection.request("GET", "/twice").text == "first")
        #expect(try connection.request("GET", "/twice").text == "first")
    }

    @Test func aWaitingRequestHoldsNoServerThread() throws {
        // One libmicrohttpd thread: a handler that blocked it would stall the health check.
        let held = try HTTPConnection(port: server.port)
        try held.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = try waiting.take()[0]
        #expect(server.server.laterAnswersOwed == 1)
        #expect(try server.client.get("/healthz").text == "ok")
        reply(.text("now"))
        #expect(try held.readResponse().text == "now")
        #expect(server.server.laterAnswersOwed == 0)
    }

    @Test func anErrorThrownLaterGetsItsPage() throws {
        let response = try server.client.get("/refused")
        #expect(response.status == 400)
        #expect(response.text.contains("No such report."))
    }

    @Test func aPostedBodyIsThereForTheLaterAnswer() throws {
        let response = try server.client.post("/echo", body: Array("abc".utf8), contentType: "application/octet-stream")
        #expect(response.text == "cba")
    }

    @Test func keepAliveConnectionsGoOnAfterALaterAnswer() throws {
        let connection = try HTTPConnection(port: server.port)
        for index in 0..<5 {
            #expect(try connection.request("GET", "/thread/n\(index)").text == "n\(index)")
            #expect(try connection.request("GET", "/healthz").text == "ok")
        }
    }

    @Test func manyAnswersAtOnceEachReachTheirOwnRequest() throws {
        let port = server.port
        let results = Threads.start(8) { client in
            (0..<25).allSatisfy { index in
                (try? HTTPClient(port: port).get("/thread/c\(client)-\(index)").text) == "c\(client)-\(index)"
            }
        }.wait()
        #expect(results.allSatisfy { $0 })
    }

    /// Past the grace period: replies still owed then get 503.
    @Test func shutdownAnswersEveryOwedReply() throws {
        let connections = try (0..<3).map { _ in try HTTPConnection(port: server.port) }
        for connection in connections { try connection.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n") }
        let replies = try waiting.take(count: 3)
        let started = ContinuousClock.now
        server.server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(5))
        for connection in connections {
            let response = try connection.readResponse()
            #expect(response.status == 503)
            #expect(response.header("Retry-After") != nil)
        }
        // Answers after shutdown are ignored: the daemon and its connections are gone.
        for reply in replies {
            #expect(reply.isAnswered)
            reply(.text("too late"))
        }
        #expect(server.server.requestsInFlight == 0)
    }
}

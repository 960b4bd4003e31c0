import Foundation
import Synchronization
import Testing
import TestSupport
@testable import MicroHTTP

/// `Response.deferred` over the real server: the connection waits suspended, holding no thread,
/// and is answered from whichever thread has the response.
@Suite struct DeferredResponseTests {
    /// Responders the routes handed out and have not answered, for the test to answer.
    final class Waiting: Sendable {
        let responders = Mutex<[Responder]>([])
        func take(count: Int = 1) throws -> [Responder] {
            try eventually("\(count) replies handed out") { responders.withLock { $0.count } >= count }
            return responders.withLock { responders in defer { responders = [] }; return responders }
        }
    }

    let waiting = Waiting()
    let server: TestServer

    init() throws {
        var router = Router()
        router.get("/held") { [waiting] _ in .deferred { responder in waiting.responders.withLock { $0.append(responder) } } }
        router.get("/thread/:text") { request in
            let text = request.parameters["text"]!
            return .deferred { responder in
                // The delay is the subject: the response comes after the handler has returned.
                Thread { Thread.sleep(forTimeInterval: 0.02); responder(.text(text)) }.start()
            }
        }
        router.get("/atonce") { _ in .deferred { responder in responder(.text("at once")) } }
        router.get("/twice") { _ in .deferred { responder in responder(.text("first")); responder(.text("second")) } }
        router.get("/refused") { _ in
            .deferred { responder in Thread { responder.run { throw HTTPError(.badRequest, "No such report.") } }.start() }
        }
        router.post("/echo") { request in
            let body = request.body
            return .deferred { responder in Thread { responder(Response(body: .bytes(body.reversed()))) }.start() }
        }
        router.get("/healthz") { _ in .text("ok") }
        server = try TestServer(router: router) {
            $0.threads = 1
            $0.shutdownGracePeriod = .milliseconds(500)
        }
    }

    @Test func aResponseFromAnotherThreadIsSent() throws {
        let response = try server.client.get("/thread/hello")
        #expect(response.status == 200)
        #expect(response.text == "hello")
        #expect(response.header("X-Request-Id") != nil)
    }

    @Test func aResponseGivenBeforeTheHandlerReturnsIsSent() throws {
        #expect(try server.client.get("/atonce").text == "at once")
    }

    @Test func onlyTheFirstResponseCounts() throws {
        let connection = try HTTPConnection(port: server.port)
        #expect(try connection.request("GET", "/twice").text == "first")
        #expect(try connection.request("GET", "/twice").text == "first")
    }

    @Test func aWaitingRequestHoldsNoServerThread() throws {
        // One libmicrohttpd thread: a handler that blocked it would stall the health check.
        let held = try HTTPConnection(port: server.port)
        try held.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        let responder = try waiting.take()[0]
        #expect(server.server.deferredResponsesOwed == 1)
        #expect(try server.client.get("/healthz").text == "ok")
        responder(.text("now"))
        #expect(try held.readResponse().text == "now")
        #expect(server.server.deferredResponsesOwed == 0)
    }

    @Test func anErrorThrownLaterGetsItsPage() throws {
        let response = try server.client.get("/refused")
        #expect(response.status == 400)
        #expect(response.text.contains("No such report."))
    }

    @Test func aPostedBodyIsThereForTheDeferredResponse() throws {
        let response = try server.client.post("/echo", body: Array("abc".utf8), contentType: "application/octet-stream")
        #expect(response.text == "cba")
    }

    @Test func keepAliveConnectionsGoOnAfterADeferredResponse() throws {
        let connection = try HTTPConnection(port: server.port)
        for index in 0..<5 {
            #expect(try connection.request("GET", "/thread/n\(index)").text == "n\(index)")
            #expect(try connection.request("GET", "/healthz").text == "ok")
        }
    }

    @Test func manyResponsesAtOnceEachReachTheirOwnRequest() throws {
        let port = server.port
        let results = Threads.start(8) { client in
            (0..<25).allSatisfy { index in
                (try? HTTPClient(port: port).get("/thread/c\(client)-\(index)").text) == "c\(client)-\(index)"
            }
        }.wait()
        #expect(results.allSatisfy { $0 })
    }

    /// Past the grace period: responses still owed then get 503.
    @Test func shutdownAnswersEveryOwedResponse() throws {
        let connections = try (0..<3).map { _ in try HTTPConnection(port: server.port) }
        for connection in connections { try connection.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n") }
        let responders = try waiting.take(count: 3)
        let started = ContinuousClock.now
        server.server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(5))
        for connection in connections {
            let response = try connection.readResponse()
            #expect(response.status == 503)
            #expect(response.header("Retry-After") != nil)
        }
        // Answers after shutdown are ignored: the daemon and its connections are gone.
        for responder in responders {
            #expect(responder.hasResponse)
            responder(.text("too late"))
        }
        #expect(server.server.requestsInFlight == 0)
    }
}

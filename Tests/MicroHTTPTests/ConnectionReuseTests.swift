import Testing
import TestSupport
@testable import MicroHTTP

/// A keep-alive connection's requests reuse one request state (`OpenConnection`): each request
/// starts from a reset state, a state something else still holds is left to it, and a closed
/// connection frees the state it kept.
@Suite struct ConnectionReuseTests {
    static func router() -> Router {
        var router = Router()
        let describe: Handler = { request in
            .text("""
                query=\(request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
                form=\(request.form.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
                body=\(String(decoding: request.body, as: UTF8.self))
                headers=\(request.headers.map(\.name).joined(separator: ","))
                cookies=\(request.cookies.map(\.key).joined(separator: ","))
                """)
        }
        router.get("/state", describe)
        router.post("/state", describe)
        router.get("/deferred") { _ in .deferred { responder in responder(.text("deferred")) } }
        return router
    }

    let server: TestServer

    init() throws { server = try TestServer(router: Self.router()) { $0.threads = 1 } }

    @Test func aKeepAliveConnectionsNextRequestSeesNothingOfTheLastOne() throws {
        let connection = try HTTPConnection(port: server.port)
        let form = try connection.request(
            "POST", "/state?a=1&b=2",
            headers: [("Cookie", "c=3"), ("X-First", "yes"), ("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("x=1&y=2".utf8))
        #expect(form.text == "query=a=1&b=2\nform=x=1&y=2\nbody=\nheaders=Host,Cookie,X-First,Content-Type,Content-Length\ncookies=c")
        let raw = try connection.request("POST", "/state", headers: [("Content-Type", "text/plain")], body: Array("hello".utf8))
        #expect(raw.text == "query=\nform=\nbody=hello\nheaders=Host,Content-Type,Content-Length\ncookies=")
        let plain = try connection.request("GET", "/state")
        #expect(plain.text == "query=\nform=\nbody=\nheaders=Host\ncookies=")
    }

    /// The next request is not taken for the deferred one: it gets its own response at once.
    @Test func aRequestAfterADeferredResponseOnTheSameConnectionIsAnsweredItself() throws {
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: 5)
        #expect(try connection.request("GET", "/deferred").text == "deferred")
        #expect(try connection.request("GET", "/state?after=deferred").text.hasPrefix("query=after=deferred\n"))
    }

    /// The client leaves halfway through its second request's body: the request completes, its
    /// state goes with the connection, and the server serves on.
    @Test func aConnectionClosedMidRequestLetsItsRequestGo() throws {
        for _ in 0..<3 {
            do {
                // Not named in an expectation, which would keep it (and its socket) for its message.
                let connection = try HTTPConnection(port: server.port)
                let status = try connection.request("GET", "/state").status
                #expect(status == 200)
                try eventually("the first request completes") { server.server.requestsInFlight == 0 }
                try connection.send("POST /state HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nhalf")
                try eventually("the second request has begun") { server.server.requestsInFlight == 1 }
            }
            try eventually("the request left halfway completes") { server.server.requestsInFlight == 0 }
        }
        #expect(try HTTPConnection(port: server.port).request("GET", "/state").status == 200)
    }

    @Test func aStateGivenBackIsTheNextRequestsReset() {
        let open = OpenConnection(deadline: nil)
        var state = open.take()
        state.start(rawTarget: "/a?b=1", queryArgumentCount: 1, id: "x-1")
        state.headersSeen = true
        state.body = [1, 2, 3]
        state.formFields = [FormField(name: "a", bytes: [0x31])]
        state.status = 200
        let first = ObjectIdentifier(state)
        open.giveBack(&state)
        let next = open.take()
        #expect(ObjectIdentifier(next) == first)
        #expect(next.rawTarget == nil && next.id.isEmpty && next.queryArgumentCount == 0)
        #expect(!next.headersSeen && next.body.isEmpty && next.formFields.isEmpty && next.status == 0)
    }

    @Test func aStateStillHeldElsewhereIsNotReused() {
        let open = OpenConnection(deadline: nil)
        var state = open.take()
        let held = state
        open.giveBack(&state)
        #expect(open.take() !== held)
    }

    @Test func aClosedConnectionFreesTheStateItKept() {
        weak var kept: RequestState?
        do {
            let open = OpenConnection(deadline: nil)
            var state = open.take()
            open.giveBack(&state)
            kept = open.spare
            #expect(kept != nil)
        }
        #expect(kept == nil)
    }
}

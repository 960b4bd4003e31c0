import Basics
import Synchronization
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
        router.get("/memory") { request in
            // Weakly: the last request's objects are still there only when the connection kept them.
            let (storage, memory) = seen.withLock { seen in
                defer { seen = (Weak(request.storageObject), Weak(request.headerMemoryObject)) }
                return (seen.storage.object === request.storageObject, seen.memory.object === request.headerMemoryObject)
            }
            return .text("storage \(storage ? "reused" : "new"), memory \(memory ? "reused" : "new")")
        }
        router.get("/keep") { request in
            kept.withLock { $0.append(request) }
            return .text("kept")
        }
        return router
    }

    /// Requests a handler kept past their response (`/keep`).
    static let kept = Mutex<[Request]>([])

    final class Weak: @unchecked Sendable {
        weak var object: AnyObject?
        init(_ object: AnyObject?) { self.object = object }
    }

    /// The storage and header memory of the last request to `/memory`.
    static let seen = Mutex<(storage: Weak, memory: Weak)>((Weak(nil), Weak(nil)))

    let server: TestServer

    init() throws { server = try TestServer(router: Self.router()) { $0.threads = 1 } }

    /// Nothing kept the first request: the second one's fields and header copy go where the first one's were.
    @Test func aKeepAliveConnectionsRequestsReuseOneRequestsMemory() throws {
        let connection = try HTTPConnection(port: server.port)
        #expect(try connection.request("GET", "/memory?a=query&and=more", headers: [("Cookie", "a=1; b=2")]).text
            == "storage new, memory new")
        #expect(try connection.request("GET", "/memory", headers: [("X-Other", "2")]).text == "storage reused, memory reused")
        #expect(try HTTPConnection(port: server.port).request("GET", "/memory").text == "storage new, memory new")
    }

    /// A request a handler kept is not written over by the connection's next one, whose head is
    /// longer than the copy kept for it.
    @Test func aRequestKeptByItsHandlerKeepsItsOwnFields() throws {
        let connection = try HTTPConnection(port: server.port)
        let marker = "k\(UInt32.random(in: 0 ... .max))"
        #expect(try connection.request("GET", "/keep?marker=\(marker)&b=1", headers: [("Cookie", "c=\(marker)")]).text == "kept")
        let long = String(repeating: "v", count: 3000)
        let next = try connection.request("GET", "/state?other=2", headers: [("Cookie", "d=4"), ("X-Long", long)])
        #expect(next.text == "query=other=2\nform=\nbody=\nheaders=Host,Cookie,X-Long\ncookies=d")
        let request = try #require(Self.kept.withLock { kept in kept.first { $0.query["marker"] == marker } })
        #expect(request.path == "/keep")
        #expect(request.query.pairs.map(\.name) == ["marker", "b"])
        #expect(request.cookies.header == "c=\(marker)")
        #expect(request.headers.map(\.name) == ["Host", "Cookie"])
    }

    /// A short query after a long one, and a request without a query or cookies after one with them.
    @Test func aShorterRequestAfterALongerOneSeesOnlyItsOwn() throws {
        let connection = try HTTPConnection(port: server.port)
        let long = "/state?" + (0..<40).map { "name\($0)=value\($0)" }.joined(separator: "&")
        let first = try connection.request("GET", long, headers: [("Cookie", "a=1; b=2")])
        #expect(first.text.hasPrefix("query=name0=value0&name1=value1&"))
        #expect(try connection.request("GET", "/state?x=1").text == "query=x=1\nform=\nbody=\nheaders=Host\ncookies=")
        #expect(try connection.request("GET", "/state").text == "query=\nform=\nbody=\nheaders=Host\ncookies=")
    }

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
        state.start(rawTarget: "/a?b=1", queryArgumentCount: 1, id: RequestID(prefix: 0xa, number: 1))
        state.headersSeen = true
        state.body = [1, 2, 3]
        state.formFields = [FormField(name: "a", bytes: [0x31])]
        state.status = 200
        let first = ObjectIdentifier(state)
        open.giveBack(&state)
        let next = open.take()
        #expect(ObjectIdentifier(next) == first)
        #expect(next.rawTarget == nil && next.requestID == .none && next.queryArgumentCount == 0)
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

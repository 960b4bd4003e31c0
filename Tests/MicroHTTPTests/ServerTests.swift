import Dispatch
import Foundation
import Testing
import TestSupport
@testable import MicroHTTP

/// The real server on an ephemeral loopback port, spoken to over HTTP.
@Suite struct ServerTests {
    static func echoRouter() -> Router {
        var router = Router()
        router.get("/hello") { request in .html(Array("<p>hello \(request.query["name"] ?? "")</p>".utf8)) }
        router.get("/query") { request in
            .text(request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "\n"))
        }
        router.post("/form") { request in
            .text(request.form.map { field in
                "\(field.name)=\(field.value)" + (field.filename.map { " (\($0), \(field.contentType ?? ""))" } ?? "")
            }.joined(separator: "\n"))
        }
        router.post("/raw") { request in .text("\(request.body.count) bytes: \(String(decoding: request.body, as: UTF8.self))") }
        router.get("/cookies") { request in .text(request.cookies.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: ";")) }
        router.get("/fail") { _ in throw CocoaError(.fileNoSuchFile) }
        router.get("/refuse") { _ in throw HTTPError(.badRequest, "You asked for <nothing>.") }
        router.get("/spliced") { _ in
            .html(.spliced(SplicedBody(base: Array("<p>[....] and [....]</p>".utf8), holes: [4..<8, 15..<19],
                                       filling: SplicedFilling("token".utf8))))
        }
        // One template for every request, as a cached page is: answers come from reused copies.
        let shared = SplicedBytes(base: Array(("<p>[....]" + String(repeating: "x", count: 4000) + "[....]</p>").utf8),
                                     holes: [3..<9, 4009..<4015])
        router.get("/spliced/:value") { request in
            var response = Response.html(.spliced(SplicedBody(spliced: shared,
                                                              filling: SplicedFilling(request.parameters["value"]!.utf8))))
            if let cookie = request.query["cookie"] { response.setCookie(SetCookie(name: "c", value: cookie)) }
            return response
        }
        return router
    }

    let server: TestServer
    var client: HTTPClient { server.client }

    init() throws { server = try TestServer(router: Self.echoRouter()) }

    @Test func getAnswersWithSecurityHeadersAndARequestID() throws {
        let response = try client.get("/hello?name=Ann")
        #expect(response.status == 200)
        #expect(response.text == "<p>hello Ann</p>")
        #expect(response.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
        #expect(response.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "same-origin")
        let first = try #require(response.header("X-Request-Id"))
        #expect(try client.get("/hello").header("X-Request-Id") != first)
    }

    @Test func aSplicedBodyArrivesWithItsHolesFilled() throws {
        let response = try client.get("/spliced")
        #expect(response.text == "<p>[token] and [token]</p>")
        #expect(response.header("Content-Length") == "26")
    }

    /// A spliced body goes out from a reused response that carries its own `Date`: one, and current.
    /// Read with the server's clock, `time`: the coarse one, up to a tick behind `Date()`'s.
    @Test func aReusedSplicedResponseCarriesOneCurrentDate() throws {
        for round in 0..<3 {
            let before = time(nil)
            let response = try client.get("/spliced/d-\(round)")
            let after = time(nil)
            let dates = response.headers("Date")
            #expect(dates.count == 1)
            #expect((before...after).map(HTTPDate.text).contains(dates.first ?? ""), "\(dates)")
        }
    }

    /// Many clients at once, each with its own value: every response has its own value in both
    /// holes, never another request's, though the copies it is sent from are reused.
    @Test func splicedBodiesFromOneSourceNeverMix() throws {
        let port = server.port
        let failures = Threads.start(8) { thread in
            let client = HTTPClient(port: port)
            var wrong: [String] = []
            var ids: [String] = []
            for request in 0..<60 {
                let value = "\(thread)-\(request + 1000)"  // 6 bytes, as the holes
                guard let response = try? client.get("/spliced/\(value)") else { wrong.append(value); continue }
                if response.text != "<p>\(value)" + String(repeating: "x", count: 4000) + "\(value)</p>"
                    || response.headers("X-Request-Id").count != 1 {
                    wrong.append(value)
                }
                ids.append(response.header("X-Request-Id") ?? "")
            }
            return (wrong, ids)
        }.wait()
        #expect(failures.allSatisfy { $0.0.isEmpty }, "\(failures.map(\.0))")
        let ids = failures.flatMap(\.1)
        #expect(Set(ids).count == ids.count, "a request id was sent twice")
    }

    /// A reused copy is sent with the response libmicrohttpd built over it last time: each response
    /// still carries its own headers, never the last request's.
    @Test func aReusedSplicedCopyCarriesOnlyItsOwnHeaders() throws {
        var ids: Set<String> = []
        for round in 0..<6 {
            let cookie = round % 3 == 1 ? "?cookie=r\(round)" : ""
            let response = try client.get("/spliced/v-\(round + 1000)\(cookie)")
            #expect(response.text.hasPrefix("<p>v-\(round + 1000)x"))
            #expect(response.headers("Set-Cookie").map { $0.hasPrefix("c=r\(round);") } == (cookie.isEmpty ? [] : [true]))
            #expect(response.headers("X-Request-Id").count == 1)
            #expect(response.header("Referrer-Policy") == "same-origin")
            ids.insert(try #require(response.header("X-Request-Id")))
        }
        #expect(ids.count == 6)
    }

    /// What makes a cached page cheap: a copy that comes back keeps the libmicrohttpd response
    /// built over it, and the next request queues that response again.
    @Test func aSplicedCopyKeepsTheResponseBuiltOverIt() throws {
        let spliced = SplicedBytes(base: Array("<p>[....]</p>".utf8), holes: [3..<9])
        var router = Router()
        router.get("/page/:value") { request in
            .html(.spliced(SplicedBody(spliced: spliced, filling: SplicedFilling(request.parameters["value"]!.utf8))))
        }
        let server = try TestServer(router: router)
        func handleAfterRequest(_ value: String) throws -> OpaquePointer? {
            #expect(try server.client.get("/page/\(value)").text == "<p>\(value)</p>")
            // The copy comes back when libmicrohttpd reports the request complete, just after sending.
            try eventually("the copy came back") { spliced.idleCount > 0 }
            let copy = try #require(spliced.lease(filling: SplicedFilling("......".utf8)))
            defer { copy.giveBack() }
            return copy.prepared?.handle
        }
        let first = try #require(try handleAfterRequest("first!"))
        #expect(try handleAfterRequest("second") == first)
    }

    /// A response with bytes inserted at the slot is sent from a kept copy of its length too, with
    /// the response built over it; each response still has its own insert and token.
    @Test func aSplicedCopyWithAnInsertKeepsTheResponseBuiltOverIt() throws {
        let spliced = SplicedBytes(base: Array("<p>[....]</p><i></i>".utf8), holes: [3..<9], slot: 16)
        var router = Router()
        router.get("/page/:value") { request in
            let value = request.parameters["value"]!
            return .html(.spliced(SplicedBody(spliced: spliced, filling: SplicedFilling(value.utf8), insert: Array(value.utf8))))
        }
        let server = try TestServer(router: router)
        func handleAfterRequest(_ value: String) throws -> OpaquePointer? {
            #expect(try server.client.get("/page/\(value)").text == "<p>\(value)</p><i>\(value)</i>")
            try eventually("the copy came back") { spliced.insertedIdleCount > 0 }
            let body = SplicedBody(spliced: spliced, filling: SplicedFilling("......".utf8), insert: Array("......".utf8))
            let copy = try #require(body.leaseInserting(.identity))
            defer { copy.giveBack() }
            return copy.prepared?.handle
        }
        let first = try #require(try handleAfterRequest("first!"))
        #expect(try handleAfterRequest("second") == first)
    }

    @Test func headHasTheHeadersOfGetWithoutTheBody() throws {
        let response = try client.head("/hello?name=Ann")
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "16")
        #expect(response.body.isEmpty)
    }

    @Test func queryValuesAreDecodedInOrder() throws {
        let response = try client.get("/query?a=1&b=x+y&a=%C3%A9t%C3%A9&flag&c=%26%3D")
        #expect(response.text == "a=1\nb=x y\na=été\nflag=\nc=&=")
    }

    @Test func invalidUTF8InTheQueryIsABadRequest() throws {
        let response = try client.get("/query?a=%FF%FE")
        #expect(response.status == 400)
        #expect(response.text.contains("not valid UTF-8"))
    }

    @Test func urlencodedFormsKeepRepeatedKeysInOrder() throws {
        let body = "name=Ann+Lee&city=Z%C3%BCrich&tag=a&tag=b%26c&empty="
        let response = try client.post("/form", body: Array(body.utf8), contentType: "application/x-www-form-urlencoded")
        #expect(response.status == 200)
        #expect(response.text == "name=Ann Lee\ncity=Zürich\ntag=a\ntag=b&c\nempty=")
    }

    @Test func multipartFormsCarryFieldsAndFiles() throws {
        let boundary = "XyZ123"
        let body = """
            --\(boundary)\r
            Content-Disposition: form-data; name="title"\r
            \r
            Café & co\r
            --\(boundary)\r
            Content-Disposition: form-data; name="upload"; filename="notes.txt"\r
            Content-Type: text/plain\r
            \r
            line one
            line two\r
            --\(boundary)\r
            Content-Disposition: form-data; name="title"\r
            \r
            second\r
            --\(boundary)--\r

            """
        let response = try client.post("/form", body: Array(body.utf8),
                                        contentType: "multipart/form-data; boundary=\(boundary)")
        #expect(response.text == "title=Café & co\nupload=line one\nline two (notes.txt, text/plain)\ntitle=second")
    }

    @Test func otherBodiesArriveRaw() throws {
        let response = try client.post("/raw", body: Array("{\"a\":1}".utf8), contentType: "application/json")
        #expect(response.text == "7 bytes: {\"a\":1}")
    }

    @Test func invalidUTF8InAFormIsABadRequest() throws {
        let response = try client.post("/form", body: Array("a=%FF".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(response.status == 400)
        #expect(response.text.contains("form field"))
    }

    @Test func bodiesOverTheLimitGet413() throws {
        let small = try TestServer(router: Self.echoRouter()) { $0.bodyLimit = 1000 }
        let declared = try small.client.post("/raw", body: [UInt8](repeating: 65, count: 5000), contentType: "text/plain")
        #expect(declared.status == 413)
        #expect(declared.text.contains("larger than"))
        // A chunked body declares no length: it is counted as it arrives.
        let connection = try HTTPConnection(port: small.port)
        let chunk = String(repeating: "b", count: 800)
        try connection.send("POST /raw HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
                            + "320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
        #expect(try connection.readResponse().status == 413)
        #expect(try small.client.post("/raw", body: Array("fits".utf8), contentType: "text/plain").status == 200)
    }

    @Test func unknownPathsAre404AndWrongMethods405() throws {
        let missing = try client.get("/nowhere/<script>")
        #expect(missing.status == 404)
        #expect(missing.text.contains("There is no page at"))
        #expect(!missing.text.contains("<script>"))
        let wrong = try HTTPConnection(port: server.port).request("DELETE", "/hello")
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "GET, HEAD")
    }

    @Test func aThrowingHandlerGets500ThenTheNextRequestIsServed() throws {
        let failed = try client.get("/fail")
        #expect(failed.status == 500)
        let id = try #require(failed.header("X-Request-Id"))
        #expect(failed.text.contains(id))
        #expect(try client.get("/hello").status == 200)
    }

    @Test func anHTTPErrorIsShownWithItsStatusAndEscapedMessage() throws {
        let refused = try client.get("/refuse")
        #expect(refused.status == 400)
        #expect(refused.text.contains("You asked for &lt;nothing&gt;."))
    }

    @Test func cookiesAreDecoded() throws {
        let response = try client.get("/cookies", headers: [("Cookie", "b=2; a=1"), ("Cookie", "c=3")])
        #expect(response.text == "a=1;b=2;c=3")
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let connection = try HTTPConnection(port: server.port)
        for index in 0..<5 {
            let response = try connection.request("GET", "/hello?name=\(index)")
            #expect(response.text == "<p>hello \(index)</p>")
            #expect(response.header("Connection")?.lowercased() != "close")
        }
    }

    @Test func twoHundredConcurrentRequestsAreAllAnswered() throws {
        // All from one address: above the default per-address limit (128), which a slow machine
        // reaches when every connection is open at once. The limit has tests of its own.
        let server = try TestServer(router: Self.echoRouter()) { $0.perIPConnectionLimit = 256 }
        let port = server.port
        // 200 threads, each with its own connection: all 200 requests are open at once.
        let statuses = Threads.start(200) { index in
            (try? HTTPClient(port: port).get("/hello?name=\(index)").status) ?? 0
        }.wait()
        #expect(statuses.count == 200)
        #expect(statuses.allSatisfy { $0 == 200 })
    }

    /// The echo routes and `/slow`, which answers once the test opens `gate`.
    static func slowRouter(_ gate: DispatchSemaphore) -> Router {
        var router = echoRouter()
        router.get("/slow") { _ in gate.wait(); return .text("slow done") }
        return router
    }

    /// Whether a new connection to `port` goes unanswered: the server is shutting down.
    static func refusesNewRequests(_ port: UInt16) -> Bool {
        (try? HTTPConnection(port: port, timeoutSeconds: 3).request("GET", "/hello")) == nil
    }

    /// A server whose `/slow` waits for `gate`, one `/slow` in flight, and its shutdown begun on
    /// another thread: where the shutdown tests start.
    static func shuttingDown(withSlowRequestHeldBy gate: DispatchSemaphore) throws
        -> (local: TestServer, port: UInt16, slow: Threads.Running<HTTPResponse?>, stopping: Threads.Running<Void>) {
        let local = try TestServer(router: slowRouter(gate))
        let port = local.port
        let slow = Threads.start(1) { _ in try? HTTPClient(port: port).get("/slow") }
        try eventually("/slow is in flight") { local.server.requestsInFlight == 1 }
        let stopping = Threads.start(1) { _ in local.server.shutdown() }
        return (local, port, slow, stopping)
    }

    @Test func shutdownLetsARequestInFlightFinish() throws {
        let gate = DispatchSemaphore(value: 0)
        let (local, port, slow, stopping) = try Self.shuttingDown(withSlowRequestHeldBy: gate)
        try eventually("the shutdown has begun") { Self.refusesNewRequests(port) }
        gate.signal()
        _ = stopping.wait()
        let response = try #require(slow.wait()[0])
        #expect(response.status == 200)
        #expect(response.text == "slow done")
        #expect(local.server.requestsInFlight == 0)
        #expect(throws: (any Error).self) { try HTTPConnection(port: port).request("GET", "/hello") }
    }

    @Test func duringTheGracePeriodNewConnectionsAreClosedAtOnce() throws {
        let gate = DispatchSemaphore(value: 0)
        let (local, port, slow, stopping) = try Self.shuttingDown(withSlowRequestHeldBy: gate)
        // Answered until the shutdown starts; then closed unanswered while /slow still runs.
        try eventually("a new connection closed unanswered") { Self.refusesNewRequests(port) }
        #expect(local.server.requestsInFlight == 1)
        gate.signal()
        _ = stopping.wait()
        #expect(slow.wait()[0]?.status == 200)
        #expect(throws: (any Error).self) { try HTTPConnection(port: port).request("GET", "/hello") }
    }

    @Test func aTakenPortIsReportedInOneLine() throws {
        var configuration = ServerConfiguration()
        configuration.port = server.port
        let second = Server(configuration: configuration, router: Router())
        #expect(throws: ServerError.bindFailed(host: "127.0.0.1", port: server.port, reason: "the port is already in use")) {
            try second.start()
        }
    }
}

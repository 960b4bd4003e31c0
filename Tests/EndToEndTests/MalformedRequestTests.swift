import Foundation
import Testing
import TestSupport

/// The malformed-request battery against the real `dynamic-home`: every case is refused with a
/// 4xx or a closed connection, never a 5xx or silence, and the server keeps serving.
@Suite struct MalformedRequestTests {
    /// A short connection timeout, so the cases a server may only end by timing out end quickly.
    static let arguments = ["--port", "0", "--connection-timeout", "3",
                            "--public", ServerProcess.publicFolder]

    /// Far beyond the connection timeout: waiting this long without a response or a close is a hang.
    static let hangSeconds = 20

    enum Observed: Equatable {
        case answered(Int)
        case closed
        case silent
    }

    static func send(_ request: MalformedRequest, to port: UInt16) throws -> Observed {
        let connection = try HTTPConnection(port: port, timeoutSeconds: hangSeconds)
        // The server may answer and close before it has read everything; its response is still there.
        try? connection.send(request.bytes)
        if request.finishSending { connection.finishSending() }
        do {
            return .answered(try connection.readResponse(method: request.isHead ? "HEAD" : "GET").status)
        } catch let failure as HTTPConnection.Failure where failure.timedOut {
            return .silent
        } catch {
            return .closed
        }
    }

    static func expectRefused(_ request: MalformedRequest, port: UInt16) throws {
        let observed = try send(request, to: port)
        let comment = Comment(rawValue: "\(request.name): \(observed)")
        switch (request.expected, observed) {
        case (_, .silent):
            Issue.record("neither answered nor closed within \(hangSeconds) s — \(comment.rawValue)")
        case (.status(let expected), .answered(let status)), (.statusOrClose(let expected), .answered(let status)):
            #expect(status == expected, comment)
        case (.status(let expected), .closed):
            Issue.record("closed without answering \(expected) — \(comment.rawValue)")
        case (.statusOrClose, .closed), (.refusal, .closed):
            break
        case (.refusal, .answered(let status)):
            #expect((400..<500).contains(status), comment)
        }
    }

    @Test(arguments: MalformedRequest.battery)
    func isRefusedAndTheServerKeepsServing(_ request: MalformedRequest) throws {
        let server = try ServerProcess(arguments: Self.arguments)
        try Self.expectRefused(request, port: server.port)
        #expect(try server.client.get("/healthz").status == 200)
        server.signal(SIGTERM)
        let status = server.waitForExit()
        #expect(status == 0, "it said: \(server.log)\n\(status == nil ? server.stacks() : "")")
    }

    /// After the 400 the connection closes: the request hidden in the body never gets a response.
    @Test func aSmuggledRequestIsNeverAnswered() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        for request in MalformedRequest.smuggling {
            let connection = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
            try? connection.send(request.bytes)
            let first = try? connection.readResponse()
            #expect(first?.status == 400, "\(request.name)")
            #expect(connection.isClosedByPeer(), "\(request.name): a second response followed")
        }
    }

    /// libmicrohttpd refuses these before any callback and writes its response's head twice; the
    /// server answers first: one status line and a body exactly as long as its `Content-Length`.
    @Test func aBadContentLengthGetsOneWholeResponse() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let cases = [("+3", 400), ("3, 3", 400), ("0x3", 400), ("-1", 400), ("five", 400),
                     ("99999999999999999999999", 413)]
        for (value, status) in cases {
            let connection = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
            try? connection.send("POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(value)\r\n\r\nabc")
            let response = String(decoding: connection.readToEnd(), as: UTF8.self)
            let parts = response.components(separatedBy: "\r\n\r\n")
            let head = parts[0].components(separatedBy: "\r\n")
            let body = parts.dropFirst().joined(separator: "\r\n\r\n")
            let length = head.first { $0.lowercased().hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).trimmingPrefix(" ")) }
            #expect(head.first == "HTTP/1.1 \(status) \(status == 400 ? "Bad Request" : "Content Too Large")", "\(value)")
            #expect(response.components(separatedBy: "HTTP/1.1 ").count == 2, "\(value): \(response)")
            #expect(length == body.utf8.count, "\(value)")
            #expect(body.contains(status == 400 ? "Content-Length must be a plain decimal number" : "larger than"), "\(value)")
        }
        #expect(try server.client.get("/healthz").status == 200)
    }

    /// A form's `%`-escape cut short or not hexadecimal is refused (libmicrohttpd drops one cut
    /// short at the end), and each refusal of a form or its length is logged.
    @Test func aFormsBrokenEscapeIsRefusedAndEveryFormRefusalIsLogged() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        func post(_ body: String, length: String? = nil) throws -> HTTPResponse {
            let connection = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
            try connection.send("POST /settings HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                                + "Content-Length: \(length ?? "\(body.utf8.count)")\r\nConnection: close\r\n\r\n\(body)")
            return try connection.readResponse()
        }
        for body in ["layout=grid%", "layout=grid%2", "layout=%ZZ", "layout=g%2rid"] {
            let response = try post(body)
            #expect(response.status == 400 && response.text.contains("malformed %-escape"), "\(body): \(response.status)")
        }
        #expect(try post("layout=grid%20").status == 403, "a whole escape reaches the form's token check")
        #expect(try post("x=a=b&layout=grid").status == 400)
        #expect(try post("abc", length: "1000000000000").status == 413)
        try eventually("the refusals logged", timeout: 10) {
            let lines = server.log.split(separator: "\n")
            return lines.filter { $0.contains("bad request") && $0.contains("%-escape") }.count == 4
                && lines.contains { $0.contains("bad request") && $0.contains("could not be decoded") }
                && lines.contains { $0.contains("request body too large") && $0.contains("1000000000000") }
        }
    }

    /// A body that trickles past the timeout gets a 408 that says so, and the connection closes;
    /// the server serves others meanwhile.
    @Test func aBodyThatTricklesPastTheTimeoutGets408() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
        try connection.send("POST /settings HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                            + "Content-Length: 1000\r\n\r\nlayout=")
        let started = Date()
        // Written from one thread, read from this one: the socket takes both at once.
        nonisolated(unsafe) let writer = connection
        let trickle = Thread {
            for _ in 0..<16 {
                Thread.sleep(forTimeInterval: 0.5)
                guard (try? writer.send("g")) != nil else { return }
            }
        }
        trickle.start()
        #expect(try server.client.get("/healthz").status == 200)
        let response = try connection.readResponse()
        #expect(response.status == 408 && response.text.contains("did not arrive within the 3 seconds"), "\(response.status)")
        #expect(Date().timeIntervalSince(started) < 8)
        try eventually("the close logged", timeout: 10) { server.log.contains("closed connections without a complete request in time") }
    }

    /// A post of another type than a form gets 415 naming the types it takes, not "form expired".
    @Test func aPostThatIsNoFormIsRefusedForItsType() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let json = try server.client.post("/settings", body: Array("{\"layout\":\"grid\"}".utf8), contentType: "application/json")
        #expect(json.status == 415 && json.text.contains("must be application/x-www-form-urlencoded or multipart/form-data, and it was application/json"))
        let none = try HTTPConnection(port: server.port).request("POST", "/watch/m-001/progress", body: Array("position=10".utf8))
        #expect(none.status == 415 && none.text.contains("and none was given"), "\(none.status)")
        #expect(try server.client.post("/settings", form: [("layout", "grid")]).status == 403, "a form without its token")
    }

    /// RFC 9112 §3.2 asks a Host of HTTP/1.1 requests only: one without it gets a page that says
    /// so, an HTTP/1.0 request without it is served.
    @Test func hostIsRequiredOfHTTP11RequestsOnly() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let old = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
        try old.send("GET /healthz HTTP/1.0\r\n\r\n")
        #expect(try old.readResponse().status == 200)
        let new = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
        try new.send("GET /healthz HTTP/1.1\r\n\r\n")
        let response = try new.readResponse()
        #expect(response.status == 400)
        #expect(response.text.contains("must name its host in a Host header"))
        try eventually("the refusal logged", timeout: 10) { server.log.contains("Host header") }
    }

    /// What libmicrohttpd refuses before any callback reaches no handler: each refusal is logged
    /// with its status, and one the server answers itself (a bad `Content-Length`, a head too
    /// large) only as that.
    @Test func libmicrohttpdsOwnRefusalsAreLogged() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let cases: [(status: Int, request: String)] = [
            (400, "GET /healthz FOO/1.1\r\nHost: localhost\r\n\r\n"),
            (505, "GET /healthz HTTP/9.9\r\nHost: localhost\r\n\r\n"),
            (414, "GET /\(String(repeating: "a", count: 10_240)) HTTP/1.1\r\nHost: localhost\r\n\r\n"),
        ]
        for (status, request) in cases {
            let connection = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
            try? connection.send(request)
            _ = connection.readToEnd()
            try eventually("\(status) logged", timeout: 10) {
                server.log.split(separator: "\n").contains { $0.contains("refused by libmicrohttpd") && $0.contains("status=\(status)") }
            }
        }
        let bad = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
        try? bad.send("POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: +3\r\n\r\nabc")
        _ = bad.readToEnd()
        try eventually("the bad length logged", timeout: 10) { server.log.contains("bad framing") }
        let large = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
        try? large.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n")
        _ = large.readToEnd()
        try eventually("the large head logged", timeout: 10) { server.log.contains("request head too large") }
        #expect(try server.client.get("/healthz").status == 200)
        let refusals = server.log.split(separator: "\n").filter { $0.contains("refused by libmicrohttpd") }
        #expect(refusals.count == cases.count, "\(refusals)")
    }

    /// A long address with a browser's headers fills the connection's memory before the head is
    /// in: libmicrohttpd refuses it, and the server answers with its own page, saying why.
    @Test func aHeadLargerThanTheConnectionsMemoryGetsTheServersPage() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let browserHeaders = (0..<12).map { "X-Browser-\($0): \(String(repeating: "v", count: 100))\r\n" }.joined()
        for head in ["GET /search?q=\(String(repeating: "a", count: 7_000)) HTTP/1.1\r\nHost: localhost\r\n\(browserHeaders)\r\n",
                     "GET /healthz HTTP/1.1\r\nHost: localhost\r\nCookie: \((0..<5000).map { "c\($0)=v" }.joined(separator: "; "))\r\n\r\n"] {
            let connection = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
            try? connection.send(head)
            let response = String(decoding: connection.readToEnd(), as: UTF8.self)
            #expect(response.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(response.prefix(200))")
            #expect(response.contains("its address and headers) is larger than the 6656 bytes"), "\(response.prefix(600))")
            #expect(response.components(separatedBy: "HTTP/1.1 ").count == 2, "one response")
        }
        #expect(try server.client.get("/healthz").status == 200)
    }

    /// A head too large for libmicrohttpd to answer is answered by the server itself: for `HEAD`,
    /// with the head alone.
    @Test func aHeadTooLargeForTheLibraryIsAnsweredWithoutABodyToHEAD() throws {
        let server = try ServerProcess(arguments: Self.arguments)
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: Self.hangSeconds)
        try connection.send("HEAD /\(String(repeating: "a", count: 7_900)) HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let response = String(decoding: connection.readToEnd(), as: UTF8.self)
        #expect(response.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        #expect(response.hasSuffix("\r\n\r\n") && response.contains("Content-Length: "), "\(response)")
    }

    @Test func oneServerSurvivesTheWholeBatteryThenStopsOnSIGTERM() throws {
        #expect(MalformedRequest.battery.count >= 40)
        let server = try ServerProcess(arguments: Self.arguments)
        for request in MalformedRequest.battery {
            try Self.expectRefused(request, port: server.port)
            #expect(try server.client.get("/healthz").status == 200, "after \(request.name)")
        }
        #expect(server.waitForExit(timeout: 0) == nil, "the server is still running")
        let errors = server.log.split(separator: "\n").filter {
            $0.contains(" error dynamic-home:") || $0.contains(" critical dynamic-home:")
        }
        #expect(errors.isEmpty, "\(errors)")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }
}

import Foundation
import Testing
import TestSupport
@testable import MicroHTTP

/// A query with many arguments gets a prompt 414 page, never silence. libmicrohttpd 0.9.75 stored
/// each query argument in the connection's memory pool while it parsed the request line; when
/// the pool ran out (about 250 empty arguments in a 16 KiB pool, fewer with a long target or large
/// headers) it answered nothing until the connection timeout closed the connection.
@Suite struct QueryArgumentTests {
    let server: TestServer

    init() throws { server = try TestServer(router: ServerTests.echoRouter()) }

    /// A fresh connection with a short timeout: silence fails the test in 3 s, not 30.
    private func get(_ target: String, headers: String = "") throws -> HTTPResponse {
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: 3)
        try connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\(headers)\r\n")
        return try connection.readResponse()
    }

    private static func repeated(_ argument: String, _ count: Int) -> String {
        Array(repeating: argument, count: count).joined(separator: "&")
    }

    @Test(arguments: [
        ("300 empty arguments", "/query?a" + String(repeating: "&", count: 300)),
        ("300 pairs", "/query?" + repeated("a=1", 300)),
        ("a mix of empty and named arguments", "/query?" + repeated("a=1&&flag&&b=x+y", 60)),
        ("101 pairs, one over the limit", "/query?" + repeated("a=1", 101)),
    ])
    func tooManyQueryArgumentsAreRefusedWith414(name: String, target: String) throws {
        let response = try get(target)
        #expect(response.status == 414, "\(name)")
        #expect(response.text.contains("at most 100 query arguments"), "\(name)")
        #expect(response.header("X-Request-Id") != nil, "\(name)")
        #expect(try get("/hello?name=Ann").text == "<p>hello Ann</p>", "\(name)")
    }

    /// The saved fuzz input as the fuzz target sends it: a POST whose query holds raw 0xFF bytes.
    @Test func theFuzzersInputIsRefusedWith414() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/corpus/RequestDecoding/hang-many-empty-query-arguments")
        let parts = try Data(contentsOf: corpus).dropFirst().split(separator: 10, maxSplits: 2, omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let connection = try HTTPConnection(port: server.port, timeoutSeconds: 3)
        try connection.send(Array("POST /form?".utf8) + parts[0] + Array(" HTTP/1.1\r\nHost: f\r\nCookie: ".utf8) + parts[1]
            + Array("\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(parts[2].count)\r\n\r\n".utf8)
            + parts[2])
        let response = try connection.readResponse()
        #expect(response.status == 414)
        #expect(response.text.contains("at most 100 query arguments"))
    }

    @Test(arguments: [
        ("50 pairs", repeated("a=1", 50), ""),
        ("100 pairs, the limit", repeated("a=1", 100), ""),
        // Heads that fill most of the 8 KiB pool (about 7 KB fit).
        ("100 pairs and 5 KB of headers", repeated("a=1", 100), "X-Pad: \(String(repeating: "p", count: 5000))\r\n"),
        ("100 arguments of 60 bytes", repeated("a=" + String(repeating: "v", count: 58), 100), ""),
        ("30 arguments of 200 bytes", repeated("a=" + String(repeating: "v", count: 198), 30), ""),
    ])
    func queriesWithinTheLimitAreServed(name: String, query: String, headers: String) throws {
        let response = try get("/query?" + query, headers: headers)
        #expect(response.status == 200, "\(name)")
        #expect(response.text.split(separator: "\n").count == query.split(separator: "&").count, "\(name)")
    }
}

/// The server decodes the query itself; these are the readings libmicrohttpd 0.9.75 gave.
@Suite struct QueryDecodingTests {
    let server: TestServer

    init() throws { server = try TestServer(router: ServerTests.echoRouter()) }

    @Test(arguments: [
        ("/query?", ""),
        ("/query?&", "="),
        ("/query?a&", "a="),
        ("/query?a&&b", "a=\n=\nb="),
        ("/query?&a", "=\na="),
        ("/query?a=b=c&d", "a=b=c\nd="),
        ("/query?=v", "=v"),
        ("/query?a+b=c+d%2B%20", "a b=c d+ "),
        ("/query?x=%26&y=%3D&%C3%A9=1", "x=&\ny==\né=1"),
        ("/query?a=&a=2", "a=\na=2"),
        ("/query?a?b=c?d", "a?b=c?d"),
    ])
    func queryIsReadAsLibmicrohttpdReadIt(target: String, expected: String) throws {
        #expect(try server.client.get(target).text == expected, "\(target)")
    }
}

@Suite struct QueryTakeoverTests {
    /// libmicrohttpd's copy of the target ends right after `?`, and the count is the decoder's.
    @Test(arguments: ["/x", "/x?", "/x?&", "/x?a", "/x?a&", "/x?a&&", "/x?&a", "/x?a=1&b&&c", "/x?a=b=c&&d=%26", "/x?a?b&c"])
    func countsTheArgumentsTheDecoderReadsAndHidesTheQuery(target: String) throws {
        var line = Array(target.utf8CString)
        let count = line.withUnsafeMutableBufferPointer { QueryTakeover.take(UnsafePointer($0.baseAddress!)) }
        let question = target.firstIndex(of: "?")
        let expected = try question.map { try QueryParameters.decode(target[target.index(after: $0)...]).pairs.count } ?? 0
        #expect(count == expected, "\(target)")
        let kept = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        #expect(kept == (question.map { String(target[...$0]) } ?? target), "\(target)")
    }
}

/// A query without `%` is read in place when asked: each look-up gives what the decoded list gives.
@Suite struct QueryLookupTests {
    @Test(arguments: ["", "&", "a", "a&", "a&&b", "&a", "a=b=c&d", "=v", "a+b=c+d", "a=&a=2", "a?b=c?d", "layout=grid",
                      "x=1&layout=grid&layout=list", "a+=1&a =2"])
    func aLookUpInPlaceFindsWhatTheDecodedListHolds(query: String) throws {
        let inPlace = try QueryParameters.decode(Substring(query))
        let listed = QueryParameters(inPlace.pairs)
        for name in ["", "a", "b", "d", "a b", "a ", "layout", "x", "a?b", "missing"] {
            #expect(inPlace[name] == listed[name], "\(query) [\(name)]")
            #expect(inPlace.values(name) == listed.values(name), "\(query) [\(name)]")
        }
        #expect(inPlace.isEmpty == query.isEmpty, "\(query)")
    }

    /// A value told apart among known ones, in place or from the decoded list: what the look-up
    /// gives, compared.
    @Test(arguments: ["", "layout=grid", "layout=list", "layout=gr+id", "layout=my+home", "layout=my%20home",
                      "layout=gr%69d", "layout=grids", "layout=", "layout", "x=1&layout=list&layout=grid",
                      "lay+out=grid", "layout=my home", "a=grid", "row=1&layout=grid", "layout=list&row=2&at=3",
                      "layout=grid&layout=list&a"])
    func aMatchAmongKnownValuesIsWhatTheLookUpGives(query: String) throws {
        let candidates = ["grid", "list", "my home", ""]
        for parameters in [try QueryParameters.decode(Substring(query)), QueryParameters(try QueryParameters.decode(Substring(query)).pairs)] {
            let expected: QueryParameters.Match = parameters["layout"].map { value in
                candidates.firstIndex(of: value).map(QueryParameters.Match.candidate) ?? .other
            } ?? .absent
            #expect(parameters.match("layout", among: candidates) == expected, "\(query)")
            #expect(parameters.contains("layout") == (parameters["layout"] != nil), "\(query)")
            for (other, named) in [("a", parameters.contains("a")), ("row", parameters.contains("row")),
                                   ("lay out", parameters.contains("lay out"))] {
                let both: (match: QueryParameters.Match, contains: Bool) = switch other {
                case "a": parameters.match("layout", among: candidates, andContains: "a")
                case "row": parameters.match("layout", among: candidates, andContains: "row")
                default: parameters.match("layout", among: candidates, andContains: "lay out")
                }
                #expect(both.match == expected && both.contains == named, "\(query) [\(other)]")
                let three = parameters.match("layout", among: candidates, andContains: "row", "a")
                #expect(three.match == expected && three.contains == (parameters.contains("row"), parameters.contains("a")), "\(query)")
            }
        }
        #expect(try QueryParameters.decode("layout=my+home").match("layout", among: candidates) == .candidate(2))
        #expect(try QueryParameters.decode("layout=gr%69d").match("layout", among: candidates) == .candidate(0))
        #expect(try QueryParameters.decode("layout=grids").match("layout", among: candidates) == .other)
        #expect(try QueryParameters.decode("a=grid").match("layout", among: candidates) == .absent)
    }

    @Test func aPlusInANameOrValueIsASpace() throws {
        let query = try QueryParameters.decode("first+name=Ann+Lee&first=x")
        #expect(query["first name"] == "Ann Lee")
        #expect(query["first+name"] == nil)
        #expect(query["first"] == "x")
        #expect(query.pairs.map(\.name) == ["first name", "first"])
    }
}

import Testing
import TestSupport
@testable import MicroHTTP

/// Request targets the server refuses rather than reads in some other way than they were sent.
@Suite struct RequestTargetTests {
    let server: TestServer

    init() throws { server = try TestServer(router: ServerTests.echoRouter()) }

    private func status(_ target: [UInt8]) throws -> HTTPResponse {
        let connection = try HTTPConnection(port: server.port)
        try connection.send(Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        return try connection.readResponse()
    }

    @Test func rawBytesThatAreNotUTF8AreRefusedNotReplaced() throws {
        let response = try status(Array("/hello".utf8) + [0xFF, 0xFE])
        #expect(response.status == 400)
        #expect(response.text.contains("not UTF-8"))
    }

    @Test(arguments: ["hello", "http://localhost/hello", "*"])
    func aTargetThatIsNotAPathIsRefused(target: String) throws {
        let response = try status(Array(target.utf8))
        #expect(response.status == 400)
        #expect(response.text.contains("starts with /"))
    }
}

extension RequestTargetTests {
    @Test(arguments: ["/query?a=%zz", "/query?a=%4", "/query?a=1&b=%", "/query?a=x%00y", "/query?%00=1"])
    func aMalformedOrNULEscapeInTheQueryIsRefused(target: String) throws {
        let response = try status(Array(target.utf8))
        #expect(response.status == 400)
        #expect(response.text.contains("%-escape"))
    }

    @Test func wellFormedEscapesInTheQueryStillDecode() throws {
        #expect(try status(Array("/query?a=%41%c3%a9&b=100%25".utf8)).text == "a=Aé\nb=100%")
    }
}

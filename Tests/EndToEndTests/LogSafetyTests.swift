import Foundation
import Testing
import TestSupport

/// What a request puts into the server's log can neither forge a line, reach the reader's
/// terminal, nor fill the disk.
@Suite struct LogSafetyTests {
    let publicFolder = ServerProcess.publicFolder

    @Test func aNewlineOrEscapeFromARequestIsEscapedInTheLog() throws {
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder])
        let forged = "/?layout=x%0a2026-01-01T00:00:00%2B0000%20critical%20dynamic-home%20:%20forged%0d%1b[2J"
        #expect(try server.client.get(forged).status == 400)
        // Raw bytes in the request line: libmicrohttpd passes them through as the path.
        let raw = try HTTPConnection(port: server.port)
        try raw.send(Array("GET /no-such-page-".utf8) + [0x1B] + Array("[31mred\u{202E}evil HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try raw.readResponse().status == 404)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let log = server.log
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("2026-01-01T00:00:00+0000 critical") })
        #expect(!log.contains("\u{1B}"))
        #expect(!log.contains("\r"))
        #expect(!log.contains("\u{202E}"))
        #expect(log.contains("x\\n2026-01-01T00:00:00+0000 critical"))
        #expect(log.contains("\\e[31mred"))
    }

    @Test func aFloodOf404sWithLongPathsWritesLittleLog() throws {
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder])
        let before = server.log.utf8.count
        let path = "/" + String(repeating: "a", count: 4_000)
        let connection = try HTTPConnection(port: server.port)
        for _ in 0..<2_000 { #expect(try connection.request("GET", path).status == 404) }
        let written = server.log.utf8.count - before
        // Unlimited, the 2,000 lines would be over 8 MB.
        #expect(written < 200_000, "\(written) bytes of log")
        #expect(server.log.contains("dropped_similar="))
        #expect(server.log.split(separator: "\n").allSatisfy { $0.utf8.count < 2_000 })
    }
}

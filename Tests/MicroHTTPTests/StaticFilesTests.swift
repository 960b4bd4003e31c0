import Foundation
import Testing
import TestSupport
@testable import MicroHTTP

/// `/assets/` over a temporary folder, with a secret beside it that no path may reach.
@Suite struct StaticFilesTests {
    let folder: URL
    let server: TestServer

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
        folder = base.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try "body { color: red }".write(to: folder.appendingPathComponent("app.css"), atomically: true, encoding: .utf8)
        try "<svg xmlns='http://www.w3.org/2000/svg'/>".write(
            to: folder.appendingPathComponent("images/logo.svg"), atomically: true, encoding: .utf8)
        try "hidden".write(to: folder.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        try "top secret".write(to: base.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("escape.txt"), withDestinationURL: base.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("inside.css"), withDestinationURL: folder.appendingPathComponent("app.css"))

        let files = try StaticFiles(folder: folder.path)
        var router = Router()
        router.get("/assets/*path") { request in try files.response(for: request.pathSegments.dropFirst(), headers: request.headers) }
        server = try TestServer(router: router)
    }

    @Test func servesFilesWithTheirTypeAndCaching() throws {
        let css = try server.client.get("/assets/app.css")
        #expect(css.status == 200)
        #expect(css.text == "body { color: red }")
        #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        #expect(css.header("Cache-Control")?.contains("max-age") == true)
        #expect(try server.client.get("/assets/images/logo.svg").header("Content-Type") == "image/svg+xml")
        #expect(try server.client.get("/assets/inside.css").status == 200)
    }

    @Test func aMatchingETagIsNotModified() throws {
        let first = try server.client.get("/assets/app.css")
        let etag = try #require(first.header("ETag"))
        let again = try server.client.get("/assets/app.css", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("ETag") == etag)
        #expect(try server.client.get("/assets/app.css", headers: [("If-None-Match", "\"stale\"")]).status == 200)
    }

    @Test(arguments: [
        "/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/%2E%2E/secret.txt",
        "/assets/images/..%2F..%2Fsecret.txt", "/assets/..%2fsecret.txt", "/assets/images%2F..%2F..%2Fsecret.txt",
        "/assets/escape.txt", "/assets/.env", "/assets/images", "/assets/images/", "/assets/%00secret.txt",
        "/assets/..%5csecret.txt", "/assets/nothing.css",
    ])
    func nothingOutsideTheFolderIsReachable(target: String) throws {
        let response = try HTTPConnection(port: server.port).request("GET", target)
        #expect([400, 404].contains(response.status), "\(target) → \(response.status)")
        #expect(!response.text.contains("top secret"))
        #expect(!response.text.contains("hidden"))
    }

    @Test func aMissingFolderIsRefusedAtStart() {
        #expect(throws: StaticFilesError.self) { try StaticFiles(folder: "/nonexistent/Public") }
    }
}

import Foundation
import Testing
import TestSupport
@testable import MicroHTTP

/// `/assets/` over a temporary folder, with a secret beside it that no path may reach.
@Suite struct StaticFilesTests {
    /// Holds `Public/` and the secret; removed when the test is over (the server only reads it).
    let base: TemporaryDirectory
    let folder: URL
    let server: TestServer

    init() throws {
        base = try TemporaryDirectory("static")
        folder = base.url.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try "body { color: red }".write(to: folder.appendingPathComponent("app.css"), atomically: true, encoding: .utf8)
        try "<svg xmlns='http://www.w3.org/2000/svg'/>".write(
            to: folder.appendingPathComponent("images/logo.svg"), atomically: true, encoding: .utf8)
        try "hidden".write(to: folder.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        try "top secret".write(to: base.url.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("escape.txt"), withDestinationURL: base.url.appendingPathComponent("secret.txt"))
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
        "/assets/..%5csecret.txt", "/assets/nothing.css", "/assets/app.css%00.txt",
    ])
    func nothingOutsideTheFolderIsReachable(target: String) throws {
        let response = try HTTPConnection(port: server.port).request("GET", target)
        #expect([400, 404].contains(response.status), "\(target) → \(response.status)")
        #expect(!response.text.contains("top secret"))
        #expect(!response.text.contains("hidden"))
    }

    @Test func smallFilesAreHeldInMemoryAndLargerOnesSentFromDisk() throws {
        try String(repeating: "x", count: 100).write(
            to: folder.appendingPathComponent("large.txt"), atomically: true, encoding: .utf8)
        let files = try StaticFiles(folder: folder.path, maximumHeldFileSize: 64)
        #expect(try Self.isHeld(files.response(for: ["app.css"], headers: Headers())))
        #expect(try !Self.isHeld(files.response(for: ["large.txt"], headers: Headers())))
        #expect(files.cache.heldBytes == "body { color: red }".utf8.count)
        // From memory, the response is the file's bytes, type and ETag as from disk.
        let held = try server.client.get("/assets/app.css")
        let again = try server.client.get("/assets/app.css")
        #expect(again.text == "body { color: red }")
        #expect(again.header("ETag") == held.header("ETag"))
        #expect(again.header("Content-Type") == "text/css; charset=utf-8")
    }

    @Test func aHeldFileIsReadAgainWhenItChanges() throws {
        let css = folder.appendingPathComponent("app.css")
        let first = try server.client.get("/assets/app.css")
        _ = try server.client.get("/assets/app.css")
        // Replaced (a new inode, the same size) and then edited in place (a new size).
        try "body { color: tan }".write(to: css, atomically: true, encoding: .utf8)
        let replaced = try server.client.get("/assets/app.css")
        #expect(replaced.text == "body { color: tan }")
        #expect(replaced.header("ETag") != first.header("ETag"))
        let handle = try FileHandle(forWritingTo: css)
        handle.seekToEndOfFile()
        handle.write(Data(" p { margin: 0 }".utf8))
        try handle.close()
        #expect(try server.client.get("/assets/app.css").text == "body { color: tan } p { margin: 0 }")
        try FileManager.default.removeItem(at: css)
        #expect(try server.client.get("/assets/app.css").status == 404)
    }

    @Test func aFileReplacedWhileItIsFetchedIsAlwaysServedWhole() throws {
        let css = folder.appendingPathComponent("app.css")
        let versions = ["body { color: red }", "body { color: green; background: white }"]
        let port = server.port
        let readers = Threads.start(4) { _ -> [String] in
            var wrong: [String] = []
            guard let connection = try? HTTPConnection(port: port) else { return ["no connection"] }
            for _ in 0..<150 {
                guard let response = try? connection.request("GET", "/assets/app.css") else { return ["no answer"] }
                let size = String(response.body.count, radix: 16)
                if !versions.contains(response.text) || response.header("ETag")?.hasPrefix("\"\(size)-") != true {
                    wrong.append("\(response.text) \(response.header("ETag") ?? "-")")
                }
            }
            return wrong
        }
        for round in 0..<150 {
            try versions[round % 2].write(to: css, atomically: true, encoding: .utf8)
        }
        #expect(readers.wait().flatMap { $0 }.isEmpty)
    }

    @Test func aHeldFileReplacedByALinkOutIsNotServed() throws {
        let swap = folder.appendingPathComponent("swap.txt")
        try "inside".write(to: swap, atomically: true, encoding: .utf8)
        #expect(try server.client.get("/assets/swap.txt").text == "inside")
        try FileManager.default.removeItem(at: swap)
        try FileManager.default.createSymbolicLink(
            at: swap, withDestinationURL: folder.deletingLastPathComponent().appendingPathComponent("secret.txt"))
        let response = try server.client.get("/assets/swap.txt")
        #expect(response.status == 404)
        #expect(!response.text.contains("top secret"))
    }

    @Test func theBudgetBoundsWhatIsHeld() throws {
        try "body { color: blue}".write(to: folder.appendingPathComponent("other.css"), atomically: true, encoding: .utf8)
        let files = try StaticFiles(folder: folder.path, heldBytes: 30)
        #expect(try Self.isHeld(files.response(for: ["app.css"], headers: Headers())))
        let other = try files.response(for: ["other.css"], headers: Headers())
        #expect(!Self.isHeld(other))
        #expect(other.status == .ok)
        #expect(files.cache.heldBytes == 19)
    }

    private static func isHeld(_ response: Response) -> Bool {
        if case .bytes = response.body { true } else { false }
    }

    @Test func aMissingFolderIsRefusedAtStart() {
        #expect(throws: StaticFilesError.self) { try StaticFiles(folder: "/nonexistent/Public") }
    }
}

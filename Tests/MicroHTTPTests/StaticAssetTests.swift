import Foundation
import Testing
import TestSupport
@testable import MicroHTTP

/// Held text files in gzip and brotli made when read, with an ETag and a 304 per coding; every
/// held file under a fingerprinted name cached for a year, the plain name for minutes.
@Suite struct StaticAssetTests {
    let base: TemporaryDirectory
    let folder: URL
    let files: StaticFiles
    let server: TestServer
    static let css = String(repeating: ".tile { color: red; margin: 0 auto; }\n", count: 100)

    init() throws {
        base = try TemporaryDirectory("assets")
        folder = base.url.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Self.css.write(to: folder.appendingPathComponent("app.css"), atomically: true, encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47] + [UInt8](repeating: 7, count: 3000))
            .write(to: folder.appendingPathComponent("images/poster.png"))
        let files = try StaticFiles(folder: folder.path)
        self.files = files
        var router = Router()
        router.get("/assets/*path") { request in try files.response(for: request.pathSegments.dropFirst(), headers: request.headers) }
        server = try TestServer(router: router)
    }

    @Test(arguments: [("gzip", "gzip"), ("br", "br"), ("gzip, br", "br"), ("identity", nil), ("deflate", nil)] as [(String, String?)])
    func heldTextGoesPrecompressed(accept: String, sent: String?) throws {
        _ = files.fingerprints()  // reads and compresses now, as the app does at start
        let response = try server.client.get("/assets/app.css", headers: [("Accept-Encoding", accept)])
        #expect(response.status == 200)
        #expect(response.header("Content-Encoding") == sent)
        #expect(response.headers("Vary") == ["Accept-Encoding"])
        #expect(Decoders.decode(response.body, contentEncoding: sent) == Array(Self.css.utf8))
        #expect(response.header("Content-Length") == String(response.body.count))
        let head = try server.client.head("/assets/app.css", headers: [("Accept-Encoding", accept)])
        #expect(head.header("Content-Length") == response.header("Content-Length"))
        #expect(head.header("ETag") == response.header("ETag"))
    }

    @Test func eachCodingRevalidatesItsOwnTag() throws {
        _ = files.fingerprints()
        var tags: [String: String] = [:]
        for accept in ["identity", "gzip", "br"] {
            let response = try server.client.get("/assets/app.css", headers: [("Accept-Encoding", accept)])
            let tag: String = try #require(response.header("ETag"))
            tags[accept] = tag
        }
        #expect(Set(tags.values).count == 3)
        for (accept, tag) in tags {
            let again = try server.client.get("/assets/app.css", headers: [("Accept-Encoding", accept), ("If-None-Match", tag)])
            #expect(again.status == 304, "\(accept)")
            #expect(again.header("ETag") == tag)
            #expect(again.header("Vary") == "Accept-Encoding")
            // Another coding's tag is not this body's: the client gets the body.
            let other = accept == "gzip" ? "br" : "gzip"
            #expect(try server.client.get("/assets/app.css", headers: [("Accept-Encoding", other), ("If-None-Match", tag)]).status == 200)
        }
    }

    @Test func fingerprintedNamesAreImmutableAndPlainNamesAreNot() throws {
        let names = files.fingerprints()
        let css = try #require(names["app.css"])
        let png = try #require(names["images/poster.png"])
        #expect(css.hasPrefix("app.") && css.hasSuffix(".css") && css != "app.css")
        for name in [css, png] {
            let response = try server.client.get("/assets/" + name)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "max-age=31536000, immutable")
        }
        #expect(try server.client.get("/assets/\(css)").text == Self.css)
        #expect(try server.client.get("/assets/\(png)").header("Content-Type") == "image/png")
        let plain = try server.client.get("/assets/app.css")
        #expect(plain.header("Cache-Control") == "max-age=300")
        // A fingerprint that is not the file's (an older page) gets the file, but not for a year.
        let stale = try server.client.get("/assets/app.0badf00d.css")
        #expect(stale.status == 200)
        #expect(stale.header("Cache-Control") == "max-age=300")
        #expect(try server.client.get("/assets/nothing.0badf00d.css").status == 404)
    }

    @Test func theFingerprintChangesWithTheFile() throws {
        let before = try #require(files.fingerprints()["app.css"])
        try (Self.css + "p { margin: 0 }\n").write(to: folder.appendingPathComponent("app.css"), atomically: true, encoding: .utf8)
        let after = try #require(files.fingerprints()["app.css"])
        #expect(after != before)
        #expect(try server.client.get("/assets/\(after)").header("Cache-Control")?.contains("immutable") == true)
        #expect(try server.client.get("/assets/\(before)").header("Cache-Control")?.contains("immutable") == false)
        let compressed = try server.client.get("/assets/\(after)", headers: [("Accept-Encoding", "br")])
        #expect(Decoders.decode(compressed.body, contentEncoding: compressed.header("Content-Encoding"))
            == Array((Self.css + "p { margin: 0 }\n").utf8))
    }

    @Test func namesSplitAroundTheirFingerprint() {
        #expect(Fingerprint.name("images/app.css", "1a2b3c4d") == "images/app.1a2b3c4d.css")
        #expect(Fingerprint.name("LICENSE", "1a2b3c4d") == "LICENSE.1a2b3c4d")
        #expect(Fingerprint.split("app.1a2b3c4d.css")! == ("app.css", "1a2b3c4d"))
        #expect(Fingerprint.split("jquery.min.1a2b3c4d.js")! == ("jquery.min.js", "1a2b3c4d"))
        #expect(Fingerprint.split("app.css") == nil)
        #expect(Fingerprint.split("app.1A2B3C4D.css") == nil)
        #expect(Fingerprint.split(".1a2b3c4d.css") == nil)
    }
}

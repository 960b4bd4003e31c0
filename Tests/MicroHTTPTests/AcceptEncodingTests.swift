import Testing
import TestSupport
@testable import MicroHTTP

/// `Accept-Encoding` → coding, and what the server sends for each: the body decodes to the same
/// bytes, `Vary` where it could differ, ETags per coding, HEAD as GET, `Content-Length` right.
@Suite struct AcceptEncodingTests {
    static let table: [(header: String?, expected: ContentCoding)] = [
        (nil, .identity),
        ("", .identity),
        ("gzip", .gzip),
        ("br", .brotli),
        ("gzip, deflate, br", .brotli),
        ("gzip, deflate, br, zstd", .brotli),
        ("deflate", .identity),
        ("zstd, compress", .identity),
        ("identity", .identity),
        ("*", .brotli),
        ("*;q=0", .identity),
        ("*;q=0, identity;q=0", .identity),
        ("br;q=0, gzip", .gzip),
        ("br;q=0, *", .gzip),
        ("gzip;q=0", .identity),
        ("gzip;q=0, *;q=0.1", .brotli),
        ("gzip;q=1.0, br;q=0.9", .gzip),
        ("gzip;q=0.5, br;q=0.5", .brotli),
        ("gzip;q=0.5, identity", .identity),
        ("gzip;q=0.5, identity;q=0.4", .gzip),
        ("identity;q=0, deflate", .identity),
        ("GZIP", .gzip),
        ("x-gzip", .gzip),
        (" br ; q=0.8 ,gzip;q=0.7", .brotli),
        ("br;q=2", .identity),
        ("br;q=0.1234, gzip", .gzip),
        ("br;q=abc, gzip;q=0.1", .gzip),
        ("br;level=3", .brotli),
        ("brotli, gzipped", .identity),
        (",,gzip,,", .gzip),
        ("gzip;q=0.001", .gzip),
        ("gzip;q=0.000", .identity),
        // Each name length read as one word: case ignored, a byte off is another coding.
        ("BR", .brotli),
        ("bs, gzip;q=0.5", .gzip),
        ("X-Gzip", .gzip),
        ("x_gzip", .identity),
        ("gzap", .identity),
        ("IDENTITY;q=0, gzip;q=0", .identity),
        ("identitz;q=0, br;q=0.5", .brotli),
        ("identity;q=0, *", .brotli),
    ]

    @Test(arguments: table.indices)
    func negotiates(index: Int) {
        let (header, expected) = Self.table[index]
        #expect(AcceptEncoding.preferred(header) == expected, "\(header ?? "(absent)")")
    }

    static let page = Array(("<!DOCTYPE html><title>t</title>" + String(repeating: "<p>compressible text</p>", count: 400)).utf8)

    let server: TestServer

    init() throws {
        var router = Router()
        router.get("/page") { _ in .html(Self.page) }
        router.get("/small") { _ in .html(Array("<p>hi</p>".utf8)) }
        router.get("/tagged") { _ in
            Response(headers: Headers([("Content-Type", "text/css"), ("ETag", "\"v1\"")]), body: .bytes(Self.page))
        }
        router.get("/image") { _ in Response(headers: Headers([("Content-Type", "image/png")]), body: .bytes(Self.page)) }
        router.get("/spliced") { _ in
            .html(.spliced(SplicedBody(base: Self.page, holes: [40..<48], filling: SplicedFilling("TOKEN123".utf8))))
        }
        server = try TestServer(router: router)
    }

    static let requests: [(header: String?, sent: String?)] = [
        (nil, nil), ("gzip", "gzip"), ("br", "br"), ("gzip, br", "br"), ("identity", nil), ("*;q=0", nil),
        ("br;q=0, gzip", "gzip"), ("deflate, zstd", nil),
    ]

    @Test(arguments: requests.indices)
    func aCompressibleBodyGoesInTheAcceptedCoding(index: Int) throws {
        let (header, sent) = Self.requests[index]
        let headers = header.map { [("Accept-Encoding", $0)] } ?? []
        for path in ["/page", "/spliced"] {
            let response = try server.client.get(path, headers: headers)
            #expect(response.header("Content-Encoding") == sent, "\(path) \(header ?? "-")")
            #expect(response.header("Vary") == "Accept-Encoding")
            #expect(response.header("Content-Length") == String(response.body.count))
            var expected = Self.page
            if path == "/spliced" { expected.replaceSubrange(40..<48, with: Array("TOKEN123".utf8)) }
            #expect(Decoders.decode(response.body, contentEncoding: sent) == expected)
            if sent != nil { #expect(response.body.count < expected.count / 4) }
            let head = try server.client.head(path, headers: headers)
            #expect(head.body.isEmpty)
            for name in ["Content-Length", "Content-Encoding", "Vary", "Content-Type"] {
                #expect(head.header(name) == response.header(name), "HEAD \(path) \(name)")
            }
        }
    }

    @Test func smallBodiesAndImagesGoAsTheyAre() throws {
        for path in ["/small", "/image"] {
            let response = try server.client.get(path, headers: [("Accept-Encoding", "gzip, br")])
            #expect(response.header("Content-Encoding") == nil)
            #expect(response.header("Vary") == nil)
        }
    }

    @Test func eachCodingHasItsOwnETag() throws {
        var tags: [String] = []
        for header in ["identity", "gzip", "br"] {
            let response = try server.client.get("/tagged", headers: [("Accept-Encoding", header)])
            tags.append(try #require(response.header("ETag")))
        }
        #expect(tags == ["\"v1\"", "\"v1-gzip\"", "\"v1-br\""])
    }

    @Test func etagsGainTheSuffixInsideTheQuotes() {
        #expect(ContentCoding.gzip.etag("W/\"a\"") == "W/\"a-gzip\"")
        #expect(ContentCoding.brotli.etag("\"a\"") == "\"a-br\"")
        #expect(ContentCoding.identity.etag("\"a\"") == "\"a\"")
    }
}

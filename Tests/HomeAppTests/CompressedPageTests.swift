import Foundation
import HomeAppTestSupport
import MicroHTTP
import Testing
import TestSupport

/// The cached home, compressed once and spliced per visitor, decodes to exactly the page the
/// same visitor gets without compression, and is about as small as compressing it whole.
@Suite struct CompressedPageTests {
    static let codings: [(header: String, coding: ContentCoding, level: Int)] = [("gzip", .gzip, 6), ("br", .brotli, 5)]

    static func visitor(_ generator: inout SplitMix64) -> String {
        (0..<32).map { _ in String(Int.random(in: 0..<16, using: &generator), radix: 16) }.joined()
    }

    @Test(arguments: ["/?layout=grid", "/?layout=list"])
    func everyVisitorsCompressedPageIsTheirPage(target: String) async throws {
        let fixture = try AppFixture(toggles: #"{"onboarding": true}"#)
        let client = HTTPClient(port: fixture.port)
        _ = try client.get(target)  // renders, caches and starts compressing
        for (header, coding, level) in Self.codings {
            let visitor = [("Cookie", "visitor=0123456789abcdef0123456789abcdef")]
            let identity = try client.get(target, headers: visitor).body
            let whole = coding.compress(identity, level: level).count
            // Until the compressed form is ready the page is compressed per response (at a fast level).
            try await eventually {
                let body = try client.get(target, headers: visitor + [("Accept-Encoding", header)]).body
                return Double(body.count) <= Double(whole) * 1.05
            }
            var generator = SplitMix64(state: 25)
            for _ in 0..<30 {
                let cookie = [("Cookie", "visitor=\(Self.visitor(&generator))")]
                let plain = try client.get(target, headers: cookie)
                let compressed = try client.get(target, headers: cookie + [("Accept-Encoding", header)])
                #expect(compressed.header("Content-Encoding") == header)
                #expect(compressed.header("Vary") == "Accept-Encoding")
                #expect(coding.decode(compressed.body) == plain.body)
                #expect(Double(compressed.body.count) <= Double(whole) * 1.05, "\(header): \(compressed.body.count) vs \(whole)")
            }
        }
    }

    /// Pages that are not cached (an unknown layout's error page, search results) are compressed too.
    @Test(arguments: ["/?layout=nope", "/search?q=a"])
    func uncachedPagesAreCompressedPerResponse(target: String) throws {
        let fixture = try AppFixture()
        let client = HTTPClient(port: fixture.port)
        let visitor = [("Cookie", "visitor=0123456789abcdef0123456789abcdef")]
        let plain = try client.get(target, headers: visitor)
        // Error pages name their request: the one difference between two responses.
        func text(_ body: [UInt8]?, _ response: HTTPResponse) -> String? {
            body.map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: response.header("X-Request-Id") ?? "-", with: "ID") }
        }
        for (header, coding, _) in Self.codings {
            let compressed = try client.get(target, headers: visitor + [("Accept-Encoding", header)])
            #expect(compressed.status == plain.status)
            #expect(compressed.header("Content-Encoding") == header)
            #expect(text(coding.decode(compressed.body), compressed) == text(plain.body, plain))
            #expect(compressed.body.count < plain.body.count * 2 / 3)
        }
    }
}

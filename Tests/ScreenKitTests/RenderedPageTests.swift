import Testing
@testable import ScreenKit

/// A page rendered once and re-filled per visitor is the page rendered for that visitor.
@Suite struct RenderedPageTests {
    private func page() -> Page { Page(root: Notice.onion(dismissURL: "/onboarding/dismiss")) }

    @Test(arguments: ["second-visitor-token_abcdefghijklmnopqrstuvw", "short", "a-much-longer-token-than-the-first-one-by-far-0123456789"])
    func fillingARenderedPageGivesTheSameBytesAsRendering(token: String) {
        let cached = page().renderPage(context: RenderContext(csrfToken: "first-visitor-token_abcdefghijklmnopqrstuvwx"))
        let rendered = page().render(context: RenderContext(csrfToken: token))
        #expect(cached.filled(with: token) == rendered)
    }

    @Test func everyTokenIsAHole() {
        let cached = page().renderPage(context: RenderContext(csrfToken: "TOKEN"))
        let html = String(decoding: cached.bytes, as: UTF8.self)
        // The meta tag, the close button's form and the "Understood" form.
        #expect(cached.tokenHoles.count == 3)
        #expect(html.split(separator: "TOKEN", omittingEmptySubsequences: false).count - 1 == 3)
        for range in cached.tokenHoles { #expect(Array(cached.bytes[range]) == Array("TOKEN".utf8)) }
    }
}

extension RenderedPage {
    /// The page for `token`: byte for byte what rendering it with that token gives.
    /// The token must need no escaping (the CSRF token is URL-safe base64).
    public func filled(with token: String) -> [UInt8] {
        let tokenBytes = Array(token.utf8)
        var page = [UInt8]()
        page.reserveCapacity(bytes.count + tokenHoles.count * max(0, tokenBytes.count - (tokenHoles.first?.count ?? 0)))
        var start = 0
        for range in tokenHoles {
            page.append(contentsOf: bytes[start..<range.lowerBound])
            page.append(contentsOf: tokenBytes)
            start = range.upperBound
        }
        page.append(contentsOf: bytes[start...])
        return page
    }
}

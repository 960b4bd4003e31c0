import Testing
@testable import ScreenKit

/// A page rendered once and re-filled per visitor is the page rendered for that visitor.
@Suite struct PageTemplateTests {
    private func page() -> Page { Page(root: NewYearContent.onion(dismissURL: "/onboarding/dismiss")) }

    @Test(arguments: ["second-visitor-token_abcdefghijklmnopqrstuvw", "short", "a-much-longer-token-than-the-first-one-by-far-0123456789"])
    func fillingATemplateGivesTheSameBytesAsRendering(token: String) {
        let template = page().renderTemplate(context: RenderContext(csrfToken: "first-visitor-token_abcdefghijklmnopqrstuvwx"))
        let rendered = page().render(context: RenderContext(csrfToken: token))
        #expect(template.filled(with: token) == rendered)
    }

    @Test func everyTokenIsASlot() {
        let template = page().renderTemplate(context: RenderContext(csrfToken: "TOKEN"))
        let html = String(decoding: template.bytes, as: UTF8.self)
        // The meta tag, the close button's form and the "OK, got it" form.
        #expect(template.tokenRanges.count == 3)
        #expect(html.split(separator: "TOKEN", omittingEmptySubsequences: false).count - 1 == 3)
        for range in template.tokenRanges { #expect(Array(template.bytes[range]) == Array("TOKEN".utf8)) }
    }
}

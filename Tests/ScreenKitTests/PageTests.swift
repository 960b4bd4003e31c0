import Testing
@testable import ScreenKit
import TestSupport

@Suite struct PageTests {
    private func document(_ configuration: PageConfiguration = PageConfiguration()) -> String {
        let page = Page(root: Notice.onion(dismissURL: "/onboarding/dismiss"), configuration: configuration)
        return String(decoding: page.render(context: RenderContext(csrfToken: "tok\"en")), as: UTF8.self)
    }

    @Test func isACompleteDocumentWithHeadAssetsAndMain() throws {
        let html = document()
        #expect(html.hasPrefix("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"))
        let tree = try HTMLDocument.parse(html)
        let head = try #require(tree.first { $0.tag == "head" })
        #expect(head.all("meta").contains { $0.attributes["name"] == "viewport" })
        #expect(head.all("meta").first { $0.attributes["name"] == "csrf-token" }?.attributes["content"] == "tok\"en")
        #expect(head.all("link").first { $0.attributes["rel"] == "stylesheet" }?.attributes["href"] == "/assets/app.css")
        let script = try #require(head.all("script").first)
        #expect(script.attributes["src"] == "/assets/app.js" && script.attributes["defer"] != nil && script.text.isEmpty)
        let main = try #require(tree.first { $0.tag == "main" })
        #expect(main.children.first?.attributes["data-controller"] == "ModalContainer")
    }

    @Test func hasNoInlineStyleOrScriptOrHandlers() throws {
        let tree = try HTMLDocument.parse(document())
        for element in tree.descendants {
            #expect(element.attributes["style"] == nil)
            #expect(!element.attributes.keys.contains { $0.hasPrefix("on") })
            #expect(element.tag != "style")
            if element.tag == "script" { #expect(element.attributes["src"] != nil && element.text.isEmpty) }
        }
    }

    @Test func assetURLsAreConfigurableAndChecked() throws {
        let html = document(PageConfiguration(stylesheetURL: "/static/site.css", scriptURL: "javascript:alert(1)"))
        let tree = try HTMLDocument.parse(html)
        #expect(tree.all("link").first?.attributes["href"] == "/static/site.css")
        #expect(tree.all("script").first?.attributes["src"] == "#")
    }

    @Test func renderedBytesAreTheWholeDocument() {
        let bytes = Page(root: ViewController()).render(context: RenderContext(csrfToken: "t"), capacity: 16)
        let html = String(decoding: bytes, as: UTF8.self)
        #expect(html.hasSuffix("<main class=\"page\"><div data-controller=\"ViewController\"></div></main></body></html>"))
    }
}

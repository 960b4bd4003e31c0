import Testing
@testable import MicroHTTP

/// MicroHTTP's own error page knows nothing of the app: a stylesheet and a way back only when given.
@Suite struct PlainErrorPageTests {
    static func html(_ page: ErrorPage) -> String {
        guard case .bytes(let bytes) = page.render(ErrorDescription(status: .notFound, message: "No <such> page.", requestID: "r1")).body
        else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theDefaultPageLinksNothingOfTheApp() {
        let html = Self.html(.plain())
        #expect(html.contains("<h1>404 Not Found</h1>"))
        #expect(html.contains("No &lt;such&gt; page."))
        #expect(html.contains("<code>r1</code>"))
        #expect(!html.contains("stylesheet"))
        #expect(!html.contains("<a "))
    }

    @Test func theAppGivesItsStylesheetAndWayBack() {
        let html = Self.html(.plain(stylesheet: "/assets/site.css", home: (href: "/", text: "Back home")))
        #expect(html.contains(#"<link rel="stylesheet" href="/assets/site.css">"#))
        #expect(html.contains(#"<p><a href="/">Back home</a></p>"#))
    }
}

import Testing
@testable import ScreenKit
import TestSupport

/// A controller that declares whatever a test needs.
final class Declaring: ViewController {
    let title: String?
    let theme: String?
    init(title: String? = nil, theme: String? = nil) {
        self.title = title
        self.theme = theme
        super.init()
    }
    override var pageTitle: String? { title }
    override var themeColor: String? { theme }
}

@Suite struct AppearanceTests {
    @Test func innermostDeclaringChildWinsForTitleAndTheme() {
        let outer = Declaring(title: "Outer", theme: "#111111")
        let middle = Declaring(title: "Middle", theme: "#222222")
        let inner = Declaring(title: "Inner")
        outer.embed(middle)
        middle.embed(inner)
        #expect(outer.resolvedPageTitle == "Inner")
        #expect(outer.resolvedThemeColor == "#222222")
        middle.unembed(inner)
        #expect(outer.resolvedPageTitle == "Middle")
    }

    @Test func aContainerCanStopTheChain() {
        final class Opaque: ViewController {
            override var pageTitle: String? { "Container" }
            override var childForPageAppearance: ViewController? { nil }
        }
        let container = Opaque()
        container.embed(Declaring(title: "Child"))
        #expect(container.resolvedPageTitle == "Container")
    }

    @Test func pageHeadUsesTheOnionsInnermostTitleAndTheme() throws {
        let page = Page(root: Notice.onion(dismissURL: "/onboarding/dismiss"),
                        configuration: PageConfiguration(titleSuffix: "Pizzeria"))
        let html = String(decoding: page.render(context: RenderContext(csrfToken: "t")), as: UTF8.self)
        let tree = try HTMLDocument.parse(html)
        #expect(tree.first { $0.tag == "title" }?.text == "Closed on Monday · Pizzeria")
        let theme = tree.all("meta").first { $0.attributes["name"] == "theme-color" }
        #expect(theme?.attributes["content"] == "#204060")
    }

    @Test func pageLoadsTheWholeTreeBeforeWritingTheHead() throws {
        final class LateTitle: ViewController {
            var title: String?
            override func viewDidLoad() { title = "Set in viewDidLoad" }
            override var pageTitle: String? { title }
        }
        let container = ViewController()
        container.embed(LateTitle())
        let html = String(decoding: Page(root: container).render(context: RenderContext(csrfToken: "t")), as: UTF8.self)
        #expect(try HTMLDocument.parse(html).first { $0.tag == "title" }?.text == "Set in viewDidLoad")
    }

    @Test func pageFallsBackToConfiguredDefaults() throws {
        let page = Page(root: ViewController(), configuration: PageConfiguration(defaultTitle: "Home", defaultThemeColor: "#abcdef"))
        let tree = try HTMLDocument.parse(String(decoding: page.render(context: RenderContext(csrfToken: "t")), as: UTF8.self))
        #expect(tree.first { $0.tag == "title" }?.text == "Home")
        #expect(tree.all("meta").first { $0.attributes["name"] == "theme-color" }?.attributes["content"] == "#abcdef")
    }
}

@Suite struct PresentedAppearanceTests {
    @Test func aPresentedChildsInnermostDeclarationWinsOverTheContent() {
        final class Presenting: ViewController {
            override var pageTitle: String? { "Home" }
            override var presentedChild: ViewController? { children.last { $0.slot == "modal" } }
        }
        let container = Presenting()
        container.embed(Declaring(title: "Content", theme: "#111111"))
        #expect(container.resolvedPageTitle == "Content")
        let modal = Declaring(title: nil, theme: "#222222")
        container.embed(modal, in: "modal")
        modal.embed(Declaring(title: "Notice"))
        #expect(container.resolvedPageTitle == "Notice")
        #expect(container.resolvedThemeColor == "#222222")
    }
}

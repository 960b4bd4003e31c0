import Testing
@testable import ScreenKit
import TestSupport

/// A typed screen: `GreetingController` + `GreetingView`.
final class GreetingView: RootView {
    var emphasis = false
    init() {}
    static var tag: StaticString { "section" }
    func renderAttributes(_ model: String, into writer: inout HTMLWriter, context: RenderContext) {
        writer.write(emphasis ? " class=\"greeting greeting--loud\"" : " class=\"greeting\"")
    }
    func renderContent(_ model: String, into writer: inout HTMLWriter, scope: RenderScope) {
        writer.write("<h2>")
        writer.text(model)
        writer.write("</h2>")
        scope.render("footer", into: &writer)
    }
}

final class GreetingController: GenericViewController<String, GreetingView> {
    var calls: [String] = []
    override func loadView() { calls.append("loadView"); super.loadView() }
    override func setupBindings() { calls.append("setupBindings"); rootView.emphasis = true }
    override func viewDidLoad() { calls.append("viewDidLoad") }
}

@Suite struct GenericViewControllerTests {
    @Test func typedRootViewLoadsOnceWithBindingsBeforeViewDidLoad() {
        let controller = GreetingController(viewModel: "Hi")
        #expect(controller.calls.isEmpty)
        #expect(controller.rootView.emphasis)
        _ = renderHTML(controller)
        #expect(controller.calls == ["loadView", "setupBindings", "viewDidLoad"])
    }

    @Test func rendersTheViewsRootElementWithControllerNameAndEscapedModel() throws {
        let controller = GreetingController(viewModel: "<b>Tom & Jerry</b>")
        let footer = GreetingController(viewModel: "footer")
        controller.embed(footer, in: "footer")
        controller.additionalSafeAreaInsets = EdgeInsets(top: .lg, bottom: .sm)
        let html = renderHTML(controller)
        #expect(html.hasPrefix("<section data-controller=\"GreetingController\" data-inset-top=\"lg\" data-inset-bottom=\"sm\" class=\"greeting greeting--loud\"><h2>&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;</h2>"))
        let tree = try HTMLDocument.parse(html)
        let section = try #require(tree.children.first)
        #expect(section.tag == "section" && section.children.last?.attributes["data-controller"] == "GreetingController")
        #expect(section.children.first?.text == "<b>Tom & Jerry</b>")
    }

    @Test func modelChangesShowOnTheNextRender() {
        let controller = GreetingController(viewModel: "before")
        _ = renderHTML(controller)
        controller.viewModel = "after"
        controller.refresh()
        #expect(renderHTML(controller).contains("<h2>after</h2>"))
    }
}

import Testing
@testable import ScreenKit
import TestSupport

@Suite struct OnionTests {
    let dismiss = "/onboarding/dismiss"

    private func onionTree() throws -> HTMLElement {
        try renderTree(Notice.onion(dismissURL: dismiss), csrf: "csrf-42")
    }

    private func element(_ name: String, in tree: HTMLElement) throws -> HTMLElement {
        try #require(tree.first { $0.attributes["data-controller"] == name })
    }

    @Test func nestingReadBackFromDataControllerIsModalTemplateContent() throws {
        let tree = try onionTree()
        let names = controllerElements(in: tree).map { $0.attributes["data-controller"] ?? "" }
        #expect(names == ["ModalContainer", "OnboardingTemplate", "Notice"])
        let content = try element("Notice", in: tree)
        let enclosing = content.ancestors.compactMap { $0.attributes["data-controller"] }
        #expect(enclosing == ["OnboardingTemplate", "ModalContainer"])
    }

    @Test func supportingButtonIsInTheTemplatesRowNotInTheContent() throws {
        let tree = try onionTree()
        let button = try #require(tree.all("button").first { $0.text == "Understood" })
        let row = try #require(button.ancestors.first { $0.hasClass("onboarding__actions") })
        #expect(row.parent?.attributes["data-controller"] == "OnboardingTemplate")
        let content = try element("Notice", in: tree)
        #expect(!button.ancestors.contains { $0 === content })
        #expect(!content.descendants.contains { $0.tag == "button" })

        let form = try #require(button.ancestors.first { $0.tag == "form" })
        #expect(form.attributes["method"] == "post" && form.attributes["action"] == dismiss)
        #expect(form.all("input").contains { $0.attributes["name"] == "_csrf" && $0.attributes["value"] == "csrf-42" })
    }

    @Test func closeButtonPostsToDismissURLWithCSRFAndContentIsInsetBelowIt() throws {
        let tree = try onionTree()
        let modal = try element("ModalContainer", in: tree)
        let close = try #require(modal.first { $0.hasClass("modal__close") })
        #expect(close.attributes["aria-label"] == "Close")
        let form = try #require(close.parent)
        #expect(form.tag == "form" && form.attributes["method"] == "post" && form.attributes["action"] == dismiss)
        #expect(form.all("input").contains { $0.attributes["name"] == "_csrf" && $0.attributes["value"] == "csrf-42" })
        // The close form is not inside the child: the child sits in the body, padded below the button.
        let template = try element("OnboardingTemplate", in: tree)
        #expect(!template.ancestors.contains { $0 === form })
        #expect(template.attributes["data-inset-top"] == "xl")
        let dialog = try #require(modal.first { $0.attributes["role"] == "dialog" })
        #expect(dialog.attributes["aria-label"] == "Closed on Monday")
    }

    @Test func contentShowsTheNoticeAndIllustration() throws {
        let content = try element("Notice", in: try onionTree())
        #expect(content.first { $0.tag == "h1" }?.text == "Closed on Monday")
        #expect(content.first { $0.tag == "p" }?.text
            == "The kitchen is being repainted; we are back on Tuesday at noon.")
        let image = try #require(content.first { $0.tag == "img" })
        #expect(image.attributes["src"] == "/assets/images/notice.svg")
        #expect(!(image.attributes["alt"] ?? "").isEmpty)
    }

    @Test func swappingTheContentBringsTheNewDatasourceButtons() throws {
        let template = OnboardingTemplate()
        let first = Notice(dismissURL: "/a")
        template.embed(first)
        let second = Notice(dismissURL: "/b")
        second.viewModel.buttonTitle = "Thanks"
        template.replace(first, with: second)
        let tree = try renderTree(template)
        let buttons = tree.all("button").map(\.text)
        #expect(buttons == ["Thanks"])
    }

    @Test func explicitDatasourceSuppliesTheRow() throws {
        final class Actions: OnboardingDatasource {
            var supportingViews: [any Component] { [LinkButton(title: "Later", url: "/")] }
        }
        let template = OnboardingTemplate()
        let actions = Actions()
        template.embed(GreetingController(viewModel: "hello"), actionsDatasource: actions)
        let tree = try renderTree(template)
        let link = try #require(tree.all("a").first)
        #expect(link.text == "Later" && link.parent?.hasClass("onboarding__actions") == true)
    }
}

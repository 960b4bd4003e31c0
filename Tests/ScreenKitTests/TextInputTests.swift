import Testing
@testable import ScreenKit
import TestSupport

@Suite struct TextInputTests {
    final class Sink { var received: [String] = [] }

    private func request(_ sink: Sink, method: FormMethod = .get, max: Int = 10) -> TextInputRequest {
        TextInputRequest(title: "Search", label: "Search for", fieldName: "q", action: "/search",
                         method: method, submitTitle: "Search", maxLength: max) { sink.received.append($0) }
    }

    @Test(arguments: ["", "   ", "\n\t \u{3000}"])
    func emptyOrWhitespaceIsRefusedWithTheRequiredMessage(input: String) throws {
        let sink = Sink()
        let controller = TextInputController(request: request(sink))
        #expect(!controller.submit(input))
        #expect(sink.received.isEmpty)
        let tree = try renderTree(controller)
        let error = try #require(tree.first { $0.hasClass("text-input__error") })
        #expect(error.text == "Please enter some text.")
        let field = try #require(tree.all("input").first { $0.attributes["name"] == "q" })
        #expect(field.attributes["aria-invalid"] == "true")
        #expect(field.attributes["aria-describedby"] == error.attributes["id"])
    }

    @Test func tooLongIsRefusedAndTheTypedTextIsKeptEscaped() throws {
        let sink = Sink()
        let controller = TextInputController(request: request(sink, max: 10))
        let typed = "<b>\"pizza\" & 'pasta'</b>"
        #expect(!controller.submit(typed))
        #expect(sink.received.isEmpty)
        let html = renderHTML(controller)
        #expect(html.contains("value=\"&lt;b&gt;&quot;pizza&quot; &amp; &#39;pasta&#39;&lt;/b&gt;\""))
        let tree = try HTMLDocument.parse(html)
        let field = try #require(tree.all("input").first { $0.attributes["name"] == "q" })
        #expect(field.attributes["value"] == typed)
        #expect(tree.first { $0.hasClass("text-input__error") }?.text == "Please use at most 10 characters.")
    }

    @Test func limitCountsCharactersOfTheTrimmedText() {
        let sink = Sink()
        let controller = TextInputController(request: request(sink, max: 5))
        #expect(controller.submit("  🍕🍕🍕é5  "))
        #expect(!controller.submit("123456"))
        #expect(sink.received == ["🍕🍕🍕é5"])
    }

    @Test func validSubmissionCallsCompletionWithTrimmedTextAndShowsNoError() throws {
        let sink = Sink()
        let controller = TextInputController(request: request(sink))
        #expect(!controller.submit(" "))
        #expect(controller.submit("  margherita \n"))
        #expect(sink.received == ["margherita"])
        let tree = try renderTree(controller)
        #expect(tree.first { $0.hasClass("text-input__error") } == nil)
        #expect(tree.all("input").first { $0.attributes["name"] == "q" }?.attributes["aria-invalid"] == nil)
    }

    @Test func formIsLabelledAndUsesTheConfiguredMethod() throws {
        let getTree = try renderTree(TextInputController(request: request(Sink(), method: .get)))
        let form = try #require(getTree.all("form").first)
        #expect(form.attributes["method"] == "get" && form.attributes["action"] == "/search")
        #expect(!form.all("input").contains { $0.attributes["name"] == "_csrf" })
        let field = try #require(form.all("input").first { $0.attributes["name"] == "q" })
        let label = try #require(form.all("label").first)
        #expect(label.attributes["for"] == field.attributes["id"] && label.text == "Search for")
        #expect(field.attributes["maxlength"] == "10")

        let postTree = try renderTree(TextInputController(request: request(Sink(), method: .post)), csrf: "c1")
        let postForm = try #require(postTree.all("form").first)
        #expect(postForm.attributes["method"] == "post")
        #expect(postForm.all("input").contains { $0.attributes["name"] == "_csrf" && $0.attributes["value"] == "c1" })
    }
}

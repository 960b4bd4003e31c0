import Testing
@testable import ScreenKit

/// A destination with its own URL, like the app's `/long/ID`.
struct LongContentRequest: SceneRequest {
    let id: String
}

/// A destination shown as a modal, with a controller built from the request.
struct NoticeRequest: SceneRequest {
    let text: String
}

struct UnregisteredRequest: SceneRequest {}

@Suite struct ScenePivotTests {
    private var pivot: ScenePivot {
        var registry = SceneRegistry()
        registry.register(LongContentRequest.self) { .push(url: "/long/" + $0.id) }
        registry.register(NoticeRequest.self) { .modal(GreetingController(viewModel: $0.text), dismissURL: "/") }
        return ScenePivot(builder: registry)
    }

    @Test func pushRedirectsToTheScenesURL() throws {
        guard case .redirect(let url) = try pivot.switchScene(with: LongContentRequest(id: "m-017")) else {
            Issue.record("push must redirect")
            return
        }
        #expect(url == "/long/m-017")
    }

    @Test func modalWrapsTheScenesControllerInAModalContainer() throws {
        guard case .page(let controller) = try pivot.switchScene(with: NoticeRequest(text: "Hello")) else {
            Issue.record("modal must render a page")
            return
        }
        let modal = try #require(controller as? ModalContainer)
        #expect(modal.viewModel.dismissURL == "/")
        #expect(modal.children.first is GreetingController)
        let names = controllerElements(in: try renderTree(modal)).compactMap { $0.attributes["data-controller"] }
        #expect(names == ["ModalContainer", "GreetingController"])
    }

    @Test func textInputRequestIsAModalOutOfTheBox() throws {
        let request = TextInputRequest(title: "Search", label: "Search for", fieldName: "q", action: "/search",
                                       method: .get, dismissURL: "/home") { _ in }
        guard case .page(let controller) = try pivot.switchScene(with: request) else {
            Issue.record("text input must be modal")
            return
        }
        let modal = try #require(controller as? ModalContainer)
        #expect(modal.viewModel.dismissURL == "/home" && modal.children.first is TextInputController)
    }

    @Test func unknownRequestThrows() {
        #expect(throws: UnknownSceneRequest.self) { try pivot.switchScene(with: UnregisteredRequest()) }
    }
}

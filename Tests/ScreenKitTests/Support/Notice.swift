@testable import ScreenKit

/// A small onion content for the tests: a heading, a line of text, an image and one button.
struct NoticeModel {
    var title = "Closed on Monday"
    var message = "The kitchen is being repainted; we are back on Tuesday at noon."
    var imageURL = "/assets/images/notice.svg"
    var buttonTitle = "Understood"
    var dismissURL: String
}

final class Notice: GenericViewController<NoticeModel, NoticeView>, OnboardingDatasource {
    init(dismissURL: String) { super.init(viewModel: NoticeModel(dismissURL: dismissURL)) }

    override var pageTitle: String? { viewModel.title }
    override var themeColor: String? { "#204060" }

    var supportingViews: [any Component] {
        [FormButton(title: viewModel.buttonTitle, action: viewModel.dismissURL, style: .primary)]
    }

    /// ModalContainer ▸ OnboardingTemplate ▸ Notice.
    static func onion(dismissURL: String) -> ModalContainer {
        let template = OnboardingTemplate()
        template.embed(Notice(dismissURL: dismissURL))
        return template.wrapInModalContainer(dismissURL: dismissURL)
    }
}

final class NoticeView: RootView {
    init() {}
    static var tag: StaticString { "article" }

    /// The root element's class.
    static var cssClass: StaticString? { "notice" }

    func renderContent(_ model: NoticeModel, into writer: inout HTMLWriter, scope: RenderScope) {
        writer.write("<img alt=\"A closed sign\"")
        writer.urlAttribute("src", model.imageURL)
        writer.write("><h1>")
        writer.text(model.title)
        writer.write("</h1><p>")
        writer.text(model.message)
        writer.write("</p>")
    }
}

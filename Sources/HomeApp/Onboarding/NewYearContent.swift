import ScreenKit

/// The core of the onion: the pizzeria's New Year notice. Its button is a supporting view,
/// drawn by the surrounding `OnboardingTemplate`.
final class NewYearContent: GenericViewController<NewYearContentModel, NewYearContentView>,
    OnboardingDatasource {
    /// Creates the notice whose "OK, got it" posts to `dismissURL`.
    init(dismissURL: String) {
        super.init(viewModel: NewYearContentModel(dismissURL: dismissURL))
    }

    /// The heading doubles as the page title.
    override var pageTitle: String? { viewModel.title }

    /// Festive night blue for the browser chrome.
    override var themeColor: String? { "#1d2a4d" }

    /// One button, "OK, got it", posting to the dismiss URL.
    var supportingViews: [any Component] {
        [FormButton(title: viewModel.buttonTitle, action: viewModel.dismissURL, style: .primary)]
    }

    /// The whole onion: ModalContainer ▸ OnboardingTemplate ▸ NewYearContent, both exits
    /// (close button and "OK, got it") posting to `dismissURL`.
    static func onion(dismissURL: String) -> ModalContainer {
        let template = OnboardingTemplate()
        template.embed(NewYearContent(dismissURL: dismissURL))
        return template.wrapInModalContainer(dismissURL: dismissURL)
    }
}

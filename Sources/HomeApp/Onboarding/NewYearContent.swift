import ScreenKit

/// The core of the onion: the New Year notice, what changes in the schedule over New Year. Its button is a supporting view,
/// drawn by the surrounding `OnboardingTemplate`.
final class NewYearContent: GenericViewController<NewYearContentModel, NewYearContentView>,
    OnboardingDatasource {
    /// Creates the notice whose "OK, got it" posts to `dismissURL`.
    init(dismissURL: String, fields: [(name: String, value: String)] = []) {
        super.init(viewModel: NewYearContentModel(dismissURL: dismissURL, fields: fields))
    }

    /// The heading doubles as the page title.
    override var pageTitle: String? { viewModel.title }

    /// Festive night blue for the browser chrome.
    override var themeColor: String? { "#1d2a4d" }

    /// One button, "OK, got it", posting to the dismiss URL.
    var supportingViews: [any Component] {
        [FormButton(title: viewModel.buttonTitle, action: viewModel.dismissURL, fields: viewModel.fields, style: .primary)]
    }

    /// The whole onion: ModalContainer ▸ OnboardingTemplate ▸ NewYearContent, both exits
    /// (close button and "OK, got it") posting to `dismissURL`, with where to go back to when
    /// the page is not the one to return to (over the home, the `Referer` says that).
    static func onion(dismissURL: String, returningTo back: String = ReturnPath.home) -> ModalContainer {
        let template = OnboardingTemplate()
        let fields = ReturnPath.fields(back)
        template.embed(NewYearContent(dismissURL: dismissURL, fields: fields))
        return template.wrapInModalContainer(dismissURL: dismissURL, dismissal: .post(fields: fields))
    }
}

/// What the New Year notice draws from.
public struct NewYearContentModel {
    /// The notice's heading.
    public var title = "Short day on New Year's Eve"
    /// The notice's text.
    public var message = "On 31 December we are open until 18:00. We will be back with pizza on 1 January at 12:00."
    /// The illustration, served from `Public/`.
    public var imageURL = "/assets/images/new-year.svg"
    /// Text alternative of the illustration.
    public var imageDescription = "A pizza under New Year's fireworks next to a clock showing six"
    /// Label of the only button.
    public var buttonTitle = "OK, got it"
    /// Where the button posts.
    public var dismissURL: String

    /// Creates the model; the texts default to the New Year notice.
    public init(dismissURL: String) {
        self.dismissURL = dismissURL
    }
}

/// The core of the onion: the pizzeria's New Year notice. Its button is a supporting view,
/// drawn by the surrounding `OnboardingTemplate`.
public final class NewYearContent: GenericViewController<NewYearContentModel, NewYearContentView>,
    OnboardingDatasource {
    /// Creates the notice whose "OK, got it" posts to `dismissURL`.
    public init(dismissURL: String) {
        super.init(viewModel: NewYearContentModel(dismissURL: dismissURL))
    }

    /// The heading doubles as the page title.
    public override var pageTitle: String? { viewModel.title }

    /// Festive night blue for the browser chrome.
    public override var themeColor: String? { "#1d2a4d" }

    /// One button, "OK, got it", posting to the dismiss URL.
    public var supportingViews: [any Component] {
        [FormButton(title: viewModel.buttonTitle, action: viewModel.dismissURL, style: .primary)]
    }

    /// The whole onion: ModalContainer ▸ OnboardingTemplate ▸ NewYearContent, both exits
    /// (close button and "OK, got it") posting to `dismissURL`.
    public static func onion(dismissURL: String) -> ModalContainer {
        let template = OnboardingTemplate()
        template.embed(NewYearContent(dismissURL: dismissURL))
        return template.wrapInModalContainer(dismissURL: dismissURL)
    }
}

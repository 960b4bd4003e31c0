/// What the onboarding template draws from.
public struct OnboardingTemplateModel {
    /// The buttons of the bottom row, taken from the content's datasource.
    public var supportingViews: [any Component]

    /// Creates the model.
    public init(supportingViews: [any Component] = []) {
        self.supportingViews = supportingViews
    }
}

/// The middle layer of the onion: content centred, a button row pinned to the bottom. The buttons
/// come from the content (`OnboardingDatasource`) but are rendered in the template's row.
public final class OnboardingTemplate: GenericViewController<OnboardingTemplateModel, OnboardingTemplateView> {
    /// Creates an empty template; embed its content with `embed(_:)`.
    public init() {
        super.init(viewModel: OnboardingTemplateModel())
    }

    /// Embeds `content` and takes the row's buttons from `actionsDatasource`.
    public func embed(_ content: ViewController, actionsDatasource: any OnboardingDatasource) {
        embed(content)
        viewModel.supportingViews = actionsDatasource.supportingViews
    }

    /// Content that is its own datasource brings its buttons along when embedded or swapped in.
    public override func prepare(toEmbed child: ViewController, in slot: Slot) {
        if slot == .content, let datasource = child as? any OnboardingDatasource {
            viewModel.supportingViews = datasource.supportingViews
        }
    }
}

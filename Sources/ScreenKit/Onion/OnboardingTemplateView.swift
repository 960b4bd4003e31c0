/// Markup of `OnboardingTemplate`: a centred content area over a bottom button row.
public final class OnboardingTemplateView: RootView {
    /// Creates the view.
    public init() {}

    /// The root element's class.
    public static var cssClass: StaticString? { "onboarding" }

    /// Writes the content slot, then the supporting views inside the action row.
    public func renderContent(_ model: OnboardingTemplateModel, into writer: inout HTMLWriter,
                              scope: RenderScope) {
        writer.write("<div class=\"onboarding__content\">")
        scope.render(.content, into: &writer)
        writer.write("</div>")
        guard !model.supportingViews.isEmpty else { return }
        writer.write("<div class=\"onboarding__actions\">")
        for view in model.supportingViews {
            view.render(into: &writer, context: scope.context)
        }
        writer.write("</div>")
    }
}

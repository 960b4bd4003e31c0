/// Markup of `ModalContainer`: a dialog sheet with the close control in its corner.
public final class ModalContainerView: RootView {
    /// Creates the view.
    public init() {}

    /// The root element's class.
    public static var cssClass: StaticString? { "modal" }

    /// Writes the sheet: close control first (first in focus order), then the child's slot.
    public func renderContent(_ model: ModalContainerModel, into writer: inout HTMLWriter,
                              scope: RenderScope) {
        writer.write("<section class=\"modal__sheet\" role=\"dialog\" aria-modal=\"true\"")
        writer.attribute("aria-label", scope.resolvedPageTitle ?? model.fallbackLabel)
        // `autofocus` works without JavaScript; tabindex makes the sheet focusable, not tabbable.
        writer.write(model.focusesSheet ? " tabindex=\"-1\" autofocus>" : ">")
        switch model.dismissal {
        case .post(let fields):
            writer.write("<form class=\"modal__close-form\" method=\"post\" data-modal-dismiss")
            writer.urlAttribute("action", model.dismissURL)
            writer.write(">")
            writer.csrfField(scope.context)
            for field in fields {
                writer.hiddenField(field.name, field.value)
            }
            writer.write("<button type=\"submit\" class=\"modal__close\"")
            writer.attribute("aria-label", model.closeLabel)
            writer.write(">")
            Self.closeIcon(into: &writer)
            writer.write("</button></form>")
        case .link:
            writer.write("<div class=\"modal__close-form\"><a class=\"modal__close\" data-modal-dismiss")
            writer.urlAttribute("href", model.dismissURL)
            writer.attribute("aria-label", model.closeLabel)
            writer.write(">")
            Self.closeIcon(into: &writer)
            writer.write("</a></div>")
        }
        writer.write("<div class=\"modal__body\">")
        scope.render(.content, into: &writer)
        writer.write("</div></section>")
    }

    private static func closeIcon(into writer: inout HTMLWriter) {
        writer.write("<svg class=\"modal__close-icon\" viewBox=\"0 0 24 24\" aria-hidden=\"true\">")
        writer.write("<path d=\"M6 6l12 12M18 6 6 18\"/></svg>")
    }
}

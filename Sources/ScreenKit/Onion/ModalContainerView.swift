/// Markup of `ModalContainer`: a dialog sheet with the close form in its corner.
public final class ModalContainerView: RootView {
    /// Creates the view.
    public init() {}

    /// The root element's class.
    public static var cssClass: StaticString? { "modal" }

    /// Writes the sheet: close form first (first in focus order), then the child's slot.
    public func renderContent(_ model: ModalContainerModel, into writer: inout HTMLWriter,
                              scope: RenderScope) {
        writer.write("<section class=\"modal__sheet\" role=\"dialog\" aria-modal=\"true\"")
        writer.attribute("aria-label", scope.resolvedPageTitle ?? model.fallbackLabel)
        writer.write("><form class=\"modal__close-form\" method=\"post\" data-modal-dismiss")
        writer.urlAttribute("action", model.dismissURL)
        writer.write(">")
        writer.csrfField(scope.context)
        writer.write("<button type=\"submit\" class=\"modal__close\"")
        writer.attribute("aria-label", model.closeLabel)
        writer.write("><svg class=\"modal__close-icon\" viewBox=\"0 0 24 24\" aria-hidden=\"true\">")
        writer.write("<path d=\"M6 6l12 12M18 6 6 18\"/></svg></button></form>")
        writer.write("<div class=\"modal__body\">")
        scope.render(.content, into: &writer)
        writer.write("</div></section>")
    }
}

import ScreenKit

/// The app's frame around the home layout: the header with search and reports, the child, and
/// any modal presented over it.
final class HomeContainerView: RootView {
    static let modalSlot: Slot = "modal"

    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "home-container" }

    func renderContent(_ model: HomeContainerModel, into writer: inout HTMLWriter, scope: RenderScope) {
        // A modal comes first, so it is first in the focus order; the home under it is scenery
        // (marked data-covered; app.js makes it inert, app.css hides it when there is no script).
        scope.render(Self.modalSlot, into: &writer)
        let covered = scope.hasChildren(in: Self.modalSlot)
        writer.write(covered ? "<div class=\"home-container__frame\" data-covered>" : "<div class=\"home-container__frame\">")
        AppHeader.render(into: &writer, context: scope.context, skipLink: true)
        writer.write("<div class=\"home-container__content\"")
        writer.write(AppHeader.contentTarget)
        writer.write("><h1 class=\"visually-hidden\">")
        writer.text(model.title)
        writer.write("</h1>")
        if let notice = model.notice {
            writer.write("<p class=\"home-container__notice\" role=\"status\">")
            writer.text(notice)
            writer.write("</p>")
        }
        scope.render(.content, into: &writer)
        writer.write("</div></div>")
    }
}

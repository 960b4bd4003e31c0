import ScreenKit

/// The app's frame around the home child: the header with search and reports, the child, and
/// any modal presented over it.
final class HomeContainerView: RootView {
    static let modalSlot: Slot = "modal"

    init() {}

    func renderAttributes(_ model: HomeContainerModel, into writer: inout HTMLWriter, context: RenderContext) {
        writer.write(" class=\"home-container\"")
    }

    func renderContent(_ model: HomeContainerModel, into writer: inout HTMLWriter, scope: RenderScope) {
        AppHeader.render(into: &writer)
        writer.write("<div class=\"home-container__content\">")
        scope.render(.content, into: &writer)
        writer.write("</div>")
        scope.render(Self.modalSlot, into: &writer)
    }
}

import HomeLayouts
import ScreenKit

/// A third layout, written outside HomeLayouts with its public API only: a dense list of
/// titles, clips first. Registering it is the only other change it needs.
final class CompactListHome: BaseHomeLayout<CompactListHomeViewModel, CompactListHomeView>, HomeLayout {
    static let layoutName = "compact"
    static let displayName = "Compact"

    required init() {
        super.init()
        viewModel.alternative = ("list", "Show as list")
    }

    func handle(_ form: [String: String]) throws(HomeFormError) {
        guard try handleCommonActions(form) else { throw .noAction }
    }
}

/// Clips first, then films, then live streams: an order neither list nor grid uses.
final class CompactListHomeViewModel: BaseHomeViewModel {
    override var sectionOrder: [HomeItemKind] { [.short, .long, .live] }
}

final class CompactListHomeView: RootView {
    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "home-compact" }

    func renderContent(_ model: CompactListHomeViewModel, into writer: inout HTMLWriter, scope: RenderScope) {
        HomeMarkup.openForm(model, into: &writer, context: scope.context)
        HomeMarkup.toolbar(model, into: &writer)
        for (index, section) in model.sections.enumerated() {
            writer.write("<h2>")
            writer.text(section.kind.sectionTitle)
            writer.write("</h2><ol class=\"compact-rows\">")
            for (position, item) in section.items.enumerated() {
                writer.write("<li>")
                if model.isPreview {
                    writer.text(item.title)
                } else {
                    writer.write("<button class=\"compact-row\" type=\"submit\" name=\"open\"")
                    writer.attribute("value", HomeIndexPath(section: index, item: position).description)
                    writer.write(">")
                    writer.text(item.title)
                    writer.write("</button>")
                }
                writer.write("</li>")
            }
            writer.write("</ol>")
        }
        HomeMarkup.closeForm(model, into: &writer)
    }
}

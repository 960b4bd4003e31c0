import ScreenKit

/// The grid's markup: per kind a heading, a "more" button and a row of tiles that scrolls sideways.
final class GridHomeView: RootView {
    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "home-grid" }

    func renderContent(_ model: GridHomeViewModel, into writer: inout HTMLWriter, scope: RenderScope) {
        HomeMarkup.sections(model, className: "home-section grid-row", into: &writer, context: scope.context) { index, section, writer in
            writer.write("<div class=\"grid-row__header\">")
            HomeMarkup.heading(model, index, section, into: &writer)
            if !model.isPreview, section.items.count > GridHomeViewModel.scrollStep {
                writer.write("<button class=\"grid-row__more\" type=\"submit\" name=\"more\"")
                writer.attribute("value", model.nextScrollTarget(forSection: index).description)
                writer.attribute("aria-label", "More \(section.kind.sectionTitle)")
                writer.write(">More</button>")
            }
            writer.write("</div><ul class=\"grid-row__tiles\"")
            writer.attribute("data-row", index)
            writer.write(">")
            for (position, item) in section.items.enumerated() {
                tile(item, HomeIndexPath(section: index, item: position), model, into: &writer, context: scope.context)
            }
            writer.write("</ul>")
        }
    }

    private func tile(_ item: any HomeItem, _ path: HomeIndexPath, _ model: GridHomeViewModel, into writer: inout HTMLWriter,
                      context: RenderContext) {
        writer.write("<li class=\"grid-tile\"")
        writer.attribute("id", "\(model.layout)-tile-\(path.section)-\(path.item)")
        writer.write(">")
        if model.isPreview {
            writer.write("<div class=\"grid-tile__open\">")
        } else {
            writer.write("<button class=\"grid-tile__open\" type=\"submit\" name=\"open\"")
            writer.attribute("value", path.description)
            writer.write(">")
        }
        HomeMarkup.poster(item, at: path, className: "grid-tile__image", width: 320, into: &writer, context: context)
        writer.write("<span class=\"grid-tile__title\">")
        writer.text(item.title)
        writer.write("</span><span class=\"grid-tile__meta")
        if item.isLiveNow { writer.write(" is-live") }
        writer.write("\">")
        writer.text(item.detail)
        writer.write("</span>")
        // Part of the tile's one button (one tab stop per tile): opening a stream on the air is
        // watching it. An upcoming stream's timing line says when it starts instead.
        if item.category == .live, item.isLiveNow, !model.isPreview {
            writer.write("<span class=\"grid-tile__watch button button--primary\">Watch live</span>")
        }
        HomeMarkup.liveBadge(item, into: &writer)
        writer.write(model.isPreview ? "</div></li>" : "</button></li>")
    }
}

import ScreenKit

/// The list's markup: sections of rows, each row a button naming its index path.
final class ListHomeView: RootView {
    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "home-list" }

    func renderContent(_ model: ListHomeViewModel, into writer: inout HTMLWriter, scope: RenderScope) {
        HomeMarkup.sections(model, className: "home-section", into: &writer, context: scope.context) { index, section, writer in
            HomeMarkup.heading(model, index, section, into: &writer)
            writer.write("<ul class=\"home-list__rows\">")
            for (position, item) in section.items.enumerated() {
                row(item, HomeIndexPath(section: index, item: position), model, into: &writer, context: scope.context)
            }
            writer.write("</ul>")
        }
    }

    private func row(_ item: any HomeItem, _ path: HomeIndexPath, _ model: ListHomeViewModel, into writer: inout HTMLWriter,
                      context: RenderContext) {
        writer.write("<li class=\"home-list__row\">")
        if model.isPreview {
            writer.write("<div class=\"list-row\">")
        } else {
            writer.write("<button class=\"list-row\" type=\"submit\" name=\"open\"")
            writer.attribute("value", path.description)
            writer.write(">")
        }
        HomeMarkup.poster(item, at: path, className: "list-row__image", width: 160, into: &writer, context: context)
        writer.write("<span class=\"list-row__text\"><span class=\"list-row__title\">")
        writer.text(item.title)
        writer.write("</span><span class=\"list-row__meta")
        if item.isLiveNow { writer.write(" is-live") }
        writer.write("\">")
        writer.text(item.detail)
        writer.write("</span><span class=\"list-row__summary\">")
        writer.text(item.summary)
        writer.write("</span></span>")
        HomeMarkup.liveBadge(item, into: &writer)
        writer.write(model.isPreview ? "</div></li>" : "</button></li>")
    }
}

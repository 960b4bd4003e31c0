import ScreenKit

/// An item's own page: poster, title, timing, description, and more of the same kind.
final class ItemScreen: GenericViewController<ItemScreenModel, ItemScreenView> {
    override var pageTitle: String? { viewModel.item.title }
}

struct ItemScreenModel {
    let item: ContentItem
    let related: [ContentItem]
    /// The visitor's viewing of this item: where they are in it, whether it is on their list.
    var progress: ViewingActivity.Progress? = nil
    var isOnList = false

    var kindLabel: String {
        switch item.kind {
        case .long: "Film"
        case .short: "Clip"
        case .live: item.isLive() ? "Live now" : "Live stream"
        }
    }
}

final class ItemScreenView: RootView {
    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "item-screen" }

    func renderContent(_ model: ItemScreenModel, into writer: inout HTMLWriter, scope: RenderScope) {
        let item = model.item
        AppHeader.render(into: &writer, context: scope.context, skipLink: true)
        writer.write("<article class=\"item-screen__article\"")
        writer.write(AppHeader.contentTarget)
        writer.write("><a class=\"item-screen__back\" href=\"/\">Back to home</a>")
        writer.write("<img class=\"item-screen__poster\"")
        writer.urlAttribute("src", scope.context.assetURL("/assets/" + item.image))
        writer.attribute("alt", "Poster of \(item.title)")
        writer.write(" width=\"960\" height=\"540\"><div class=\"item-screen__body\"><p class=\"item-screen__kind")
        if item.isLive() { writer.write(" is-live") }
        writer.write("\">")
        writer.text(model.kindLabel)
        writer.write("</p><h1 class=\"item-screen__title\">")
        writer.text(item.title)
        writer.write("</h1><p class=\"item-screen__timing\">")
        writer.text(item.timingText())
        writer.write("</p><p class=\"item-screen__description\">")
        writer.text(item.description)
        writer.write("</p>")
        renderActions(model, into: &writer, context: scope.context)
        writer.write("</div></article>")
        guard !model.related.isEmpty else { return }
        writer.write("<section class=\"item-screen__related\" aria-labelledby=\"related-heading\">")
        writer.write("<h2 id=\"related-heading\">More like this</h2><ul class=\"related-list\">")
        for other in model.related {
            writer.write("<li><a class=\"related-list__link\"")
            writer.urlAttribute("href", "/\(ItemRequest.Scene(other.kind).rawValue)/\(other.id)")
            writer.write("><img")
            writer.urlAttribute("src", scope.context.assetURL("/assets/" + other.image))
            writer.write(" alt=\"\" width=\"160\" height=\"90\" decoding=\"async\" loading=\"lazy\"><span>")
            writer.text(other.title)
            writer.write("</span>")
            if other.isLive() { writer.write("<span class=\"poster__badge\" aria-hidden=\"true\">Live</span>") }
            writer.write("</a></li>")
        }
        writer.write("</ul></section>")
    }

    /// Play (films and clips) and Add to My List / Remove, each a small form that posts.
    private func renderActions(_ model: ItemScreenModel, into writer: inout HTMLWriter, context: RenderContext) {
        let item = model.item
        writer.write("<div class=\"item-screen__actions\">")
        if item.kind != .live {
            let resume = model.progress.map { $0.position > 0 } ?? false
            FormButton(title: resume ? "Resume" : "Play", action: WatchRoutes.playPath(item.id))
                .render(into: &writer, context: context)
        }
        FormButton(title: model.isOnList ? "Remove from My List" : "Add to My List", action: WatchRoutes.myListPath(item.id),
                   fields: [("action", model.isOnList ? "remove" : "add")], style: .secondary)
            .render(into: &writer, context: context)
        writer.write("</div>")
        if let progress = model.progress, progress.position > 0 {
            writer.write("<p class=\"item-screen__progress\">")
            writer.text("Watched \(WatchScreenModel.clock(progress.position)) of \(WatchScreenModel.clock(progress.duration))")
            writer.write("</p>")
        }
    }
}

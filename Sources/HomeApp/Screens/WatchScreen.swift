import ScreenKit

/// `/watch/ID`: the title playing, without media: its poster, its title, and where the visitor
/// is in it, which they move with a range control (a form that posts the position; the page's
/// script saves it as the control moves).
final class WatchScreen: GenericViewController<WatchScreenModel, WatchScreenView> {
    override var pageTitle: String? { "Watching \(viewModel.item.title)" }
}

struct WatchScreenModel {
    let item: ContentItem
    /// Seconds into the title, and its length in seconds.
    let position: Int
    let duration: Int
    /// A notice over the control, e.g. after a position was saved without the script.
    var notice: String? = nil

    /// "12:34 of 1:52:00".
    var positionText: String { "\(Self.clock(position)) of \(Self.clock(duration))" }

    /// Seconds as m:ss or h:mm:ss.
    static func clock(_ seconds: Int) -> String {
        let (minutes, secs) = max(0, seconds).quotientAndRemainder(dividingBy: 60)
        let (hours, mins) = minutes.quotientAndRemainder(dividingBy: 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(mins)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}

final class WatchScreenView: RootView {
    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "watch-screen" }

    func renderContent(_ model: WatchScreenModel, into writer: inout HTMLWriter, scope: RenderScope) {
        let item = model.item
        let itemPath = "/\(ItemRequest.Scene(item.kind).rawValue)/\(item.id)"
        AppHeader.render(into: &writer, context: scope.context, skipLink: true)
        writer.write("<article class=\"watch-screen__article\"")
        writer.write(AppHeader.contentTarget)
        writer.write("><a class=\"item-screen__back\"")
        writer.urlAttribute("href", itemPath)
        writer.write(">Back to the title</a><img class=\"watch-screen__poster\"")
        writer.urlAttribute("src", scope.context.assetURL("/assets/" + item.image))
        writer.attribute("alt", "Poster of \(item.title)")
        writer.write(" width=\"960\" height=\"540\"><h1 class=\"watch-screen__title\">")
        writer.text(item.title)
        writer.write("</h1>")
        if let notice = model.notice {
            writer.write("<p class=\"watch-screen__notice\" role=\"status\">")
            writer.text(notice)
            writer.write("</p>")
        }
        writer.write("<form class=\"watch-progress\" method=\"post\"")
        writer.urlAttribute("action", WatchRoutes.progressPath(item.id))
        writer.write(">")
        writer.csrfField(scope.context)
        writer.write("<label class=\"watch-progress__label\" for=\"watch-position\">Position</label>")
        writer.write("<input class=\"watch-progress__range\" id=\"watch-position\" type=\"range\" name=\"position\" min=\"0\" step=\"1\"")
        writer.attribute("max", model.duration)
        writer.attribute("value", model.position)
        writer.attribute("aria-valuetext", model.positionText)
        writer.write("><output class=\"watch-progress__time\" for=\"watch-position\">")
        writer.text(model.positionText)
        writer.write("</output><button class=\"button button--primary watch-progress__save\" type=\"submit\">Save position</button>")
        writer.write("</form></article>")
    }
}

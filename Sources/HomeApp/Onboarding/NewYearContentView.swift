import ScreenKit

/// Markup of `NewYearContent`: illustration, heading and text.
final class NewYearContentView: RootView {
    /// Creates the view.
    init() {}

    /// The notice is an article of its own.
    static var tag: StaticString { "article" }

    /// The root element's class.
    static var cssClass: StaticString? { "notice" }

    /// Writes the illustration, heading and text.
    func renderContent(_ model: NewYearContentModel, into writer: inout HTMLWriter,
                              scope: RenderScope) {
        writer.write("<img class=\"notice__illustration\" width=\"320\" height=\"220\"")
        writer.urlAttribute("src", scope.context.assetURL(model.imageURL))
        writer.attribute("alt", model.imageDescription)
        writer.write("><h1 class=\"notice__title\">")
        writer.text(model.title)
        writer.write("</h1><p class=\"notice__text\">")
        writer.text(model.message)
        writer.write("</p>")
    }
}

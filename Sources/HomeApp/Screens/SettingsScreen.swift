import ScreenKit

/// Lets the visitor pick the default layout (kept in a cookie) or go back to the default.
final class SettingsScreen: GenericViewController<SettingsScreenModel, SettingsScreenView> {
    override var pageTitle: String? { "Settings" }
}

struct SettingsScreenModel {
    /// Every layout: its name and its label.
    let layouts: [(name: String, title: String)]
    /// The layout `/` shows this visitor now.
    let current: String
    /// Whether `current` is the visitor's own choice rather than the default.
    let isChosen: Bool
    /// Whether the visitor has anything in Continue watching, My List or finished titles.
    var hasHistory = false
}

final class SettingsScreenView: RootView {
    init() {}

    /// The root element's class.
    static var cssClass: StaticString? { "settings-screen" }

    func renderContent(_ model: SettingsScreenModel, into writer: inout HTMLWriter, scope: RenderScope) {
        AppHeader.render(into: &writer, context: scope.context, skipLink: true)
        writer.write("<div class=\"settings-screen__body\"")
        writer.write(AppHeader.contentTarget)
        writer.write("><h1>Settings</h1>")
        writer.write("<form class=\"settings-form\" method=\"post\" action=\"/settings\">")
        writer.csrfField(scope.context)
        writer.write("<fieldset class=\"choices\"><legend>Home layout</legend>")
        for layout in model.layouts {
            writer.write("<label class=\"choice\"><input type=\"radio\" name=\"layout\"")
            writer.attribute("value", layout.name)
            writer.attribute("checked", if: layout.name == model.current)
            writer.write("><span class=\"choice__title\">")
            writer.text(layout.title)
            writer.write("</span></label>")
        }
        // The layout card: each layout drawn with the catalogue, to choose by sight.
        writer.write("<a class=\"settings-form__preview\"")
        writer.urlAttribute("href", "\(LayoutChoice.choosePath)?\(ReturnPath.field)=/settings")
        writer.write(">See the layouts side by side</a></fieldset><p class=\"settings-form__note\">")
        writer.write(model.isChosen ? "This is your choice; it is kept in a cookie on this browser."
                                    : "You have not chosen yet: this is the default.")
        writer.write("</p><button class=\"button button--primary\" type=\"submit\">Save</button></form>")
        if model.isChosen {
            FormButton(title: "Reset to the default", action: "/settings", fields: [("reset", "1")], style: .secondary)
                .render(into: &writer, context: scope.context)
        }
        writer.write("<section class=\"settings-screen__history\" aria-labelledby=\"history-heading\">")
        writer.write("<h2 id=\"history-heading\">Viewing history</h2><p>")
        if model.hasHistory {
            writer.write("Clearing empties Continue watching and My List, and Because you watched forgets what you played.</p>")
            FormButton(title: "Clear history", action: WatchRoutes.clearHistoryPath, style: .secondary)
                .render(into: &writer, context: scope.context)
        } else {
            writer.write("Nothing played or listed on this browser yet.</p>")
        }
        writer.write("</section></div>")
    }
}

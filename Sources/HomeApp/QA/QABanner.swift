import ScreenKit

/// The banner on every page of a visitor with a QA override: what is forced, until when, and a
/// button that ends it (a form post, CSRF-checked). In the render context, so every screen that
/// draws the app's header draws it; such a visitor's home is drawn for them, never the cached page.
enum QABanner: RenderContextKey {
    static let defaultValue: QAOverride? = nil

    static func render(into writer: inout HTMLWriter, context: RenderContext) {
        guard let override = context[QABanner.self] else { return }
        writer.write("<div class=\"qa-banner\" role=\"status\" data-qa-override><p>QA override on: ")
        writer.text(override.summary)
        writer.write(", until ")
        writer.text(override.expiryText)
        writer.write(". Your events are marked and left out of experiment results.</p><form method=\"post\"")
        writer.urlAttribute("action", QAOverride.endPath)
        writer.write(">")
        writer.csrfField(context)
        writer.hiddenField("from", context.path)
        writer.write("<button class=\"button button--secondary\" type=\"submit\">End the override</button></form></div>")
    }
}

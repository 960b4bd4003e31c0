import ScreenKit

/// The bar on top of every screen: the brand (home), search and the report log, after a skip
/// link to the page's content for keyboard users.
enum AppHeader {
    static let logoURL = "/assets/images/logo.svg"
    /// What a screen writes into its content element's tag: the skip link's target, focusable
    /// (not tabbable), so the next Tab goes on from there.
    static let contentTarget: StaticString = " id=\"content\" tabindex=\"-1\""

    /// `skipLink`: the screen has an element with `contentTarget`.
    static func render(into writer: inout HTMLWriter, context: RenderContext, skipLink: Bool = false) {
        if skipLink { writer.write("<a class=\"skip-link\" href=\"#content\">Skip to content</a>") }
        writer.write("<header class=\"app-header\"><a class=\"app-header__brand\" href=\"/\"><img")
        writer.urlAttribute("src", context.assetURL(logoURL))
        writer.write("""
             alt="" width="28" height="28">DynamicHome</a>\
            <nav class="app-header__nav" aria-label="Main">\
            <a class="app-header__link" href="/search"><span class="app-header__label">Search</span></a>\
            <a class="app-header__link" href="/reports"><span class="app-header__label">Reports</span></a></nav></header>
            """)
        QABanner.render(into: &writer, context: context)
    }
}

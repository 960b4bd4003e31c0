import ScreenKit

/// The bar on top of every screen: the brand (home), search and the report log.
enum AppHeader {
    static let logoURL = "/assets/images/logo.svg"

    static func render(into writer: inout HTMLWriter, context: RenderContext) {
        writer.write("<header class=\"app-header\"><a class=\"app-header__brand\" href=\"/\"><img")
        writer.urlAttribute("src", context.assetURL(logoURL))
        writer.write("""
             alt="" width="28" height="28">DynamicHome</a>\
            <nav class="app-header__nav" aria-label="Main">\
            <a class="app-header__link" href="/search"><span class="app-header__label">Search</span></a>\
            <a class="app-header__link" href="/reports"><span class="app-header__label">Reports</span></a></nav></header>
            """)
    }
}

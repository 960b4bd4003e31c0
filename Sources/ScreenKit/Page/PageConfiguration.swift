/// Site-wide settings of every page document.
public struct PageConfiguration: Sendable {
    /// The document's `lang`.
    public var language: String
    /// Title used when no controller declares one.
    public var defaultTitle: String
    /// Appended to a controller's title as "Title · suffix"; nil for none.
    public var titleSuffix: String?
    /// `theme-color` used when no controller declares one.
    public var defaultThemeColor: String
    /// The stylesheet, served from `Public/`.
    public var stylesheetURL: String
    /// Stylesheets linked after it, for pages a visitor never sees: the home's first visit
    /// downloads none of their rules.
    public var extraStylesheetURLs: [String] = []
    /// The deferred script, served from `Public/`.
    public var scriptURL: String
    /// Deferred scripts run after it, for pages a visitor never sees, as `extraStylesheetURLs`.
    public var extraScriptURLs: [String] = []
    /// The favicon, or nil for none.
    public var iconURL: String?

    /// Creates a configuration; the defaults match the app's `/assets/` mount of `Public/`.
    public init(language: String = "en",
                defaultTitle: String = "Home",
                titleSuffix: String? = nil,
                defaultThemeColor: String = "#c8372d",
                stylesheetURL: String = "/assets/app.css",
                scriptURL: String = "/assets/app.js",
                iconURL: String? = nil) {
        self.language = language
        self.defaultTitle = defaultTitle
        self.titleSuffix = titleSuffix
        self.defaultThemeColor = defaultThemeColor
        self.stylesheetURL = stylesheetURL
        self.scriptURL = scriptURL
        self.iconURL = iconURL
    }
}

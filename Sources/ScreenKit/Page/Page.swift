/// A complete HTML5 document around a root controller.
///
/// Title and theme colour come from the innermost controller that declares them. There is no
/// inline script or `style` attribute, so the page runs under CSP `default-src 'self'`.
public struct Page {
    /// The controller rendered inside `<main>`.
    public var root: ViewController
    /// Site-wide document settings.
    public var configuration: PageConfiguration

    /// Creates a page around `root`.
    public init(root: ViewController, configuration: PageConfiguration = PageConfiguration()) {
        self.root = root
        self.configuration = configuration
    }

    /// Renders the document and hands over its UTF-8 bytes without copying.
    public func render(context: RenderContext, capacity: Int = HTMLWriter.defaultCapacity) -> [UInt8] {
        var writer = HTMLWriter(capacity: capacity)
        render(into: &writer, context: context)
        return writer.finish()
    }

    /// Renders the document and keeps where the CSRF token went, so the bytes can be served
    /// again to other visitors with their own token spliced in.
    public func renderPage(context: RenderContext, capacity: Int = HTMLWriter.defaultCapacity) -> RenderedPage {
        var writer = HTMLWriter(capacity: capacity)
        render(into: &writer, context: context)
        let ranges = writer.tokenHoles, slots = writer.slots
        return RenderedPage(bytes: writer.finish(), tokenHoles: ranges, slots: slots)
    }

    /// The `<title>` text: the resolved title (with the suffix) or the default.
    public var title: String {
        guard let title = root.resolvedPageTitle else { return configuration.defaultTitle }
        guard let suffix = configuration.titleSuffix else { return title }
        return title + " · " + suffix
    }

    /// Writes the document into `writer`.
    public func render(into writer: inout HTMLWriter, context: RenderContext) {
        // viewDidLoad may set titles or add children: settle the whole tree before the head.
        root.loadViewTreeIfNeeded()
        writer.write("<!DOCTYPE html><html")
        writer.attribute("lang", configuration.language)
        writer.write("><head><meta charset=\"utf-8\">")
        writer.write("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">")
        writer.write("<title>")
        writer.text(title)
        writer.write("</title><meta name=\"theme-color\"")
        writer.attribute("content", root.resolvedThemeColor ?? configuration.defaultThemeColor)
        writer.write("><meta name=\"color-scheme\" content=\"light dark\"><meta name=\"csrf-token\" content=\"")
        writer.token(context.csrfToken)
        writer.write("\"><link rel=\"stylesheet\"")
        writer.urlAttribute("href", context.assetURL(configuration.stylesheetURL))
        for url in configuration.extraStylesheetURLs {
            writer.write("><link rel=\"stylesheet\"")
            writer.urlAttribute("href", context.assetURL(url))
        }
        if let iconURL = configuration.iconURL {
            writer.write("><link rel=\"icon\"")
            writer.urlAttribute("href", context.assetURL(iconURL))
        }
        writer.write("><script defer")
        writer.urlAttribute("src", context.assetURL(configuration.scriptURL))
        for url in configuration.extraScriptURLs {
            writer.write("></script><script defer")
            writer.urlAttribute("src", context.assetURL(url))
        }
        writer.write("></script></head><body><main class=\"page\">")
        root.render(into: &writer, context: context)
        writer.write("</main></body></html>")
    }
}

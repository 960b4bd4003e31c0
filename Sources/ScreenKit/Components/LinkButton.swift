/// A link that looks like a button: navigation that changes nothing.
public struct LinkButton: Component {
    /// The link's text.
    public var title: String
    /// Where it goes (relative or http(s); anything else is refused).
    public var url: String
    /// The link's look.
    public var style: ButtonStyle

    /// Creates a link styled as a button.
    public init(title: String, url: String, style: ButtonStyle = .secondary) {
        self.title = title
        self.url = url
        self.style = style
    }

    /// Writes `<a class="button …" href="…">title</a>`.
    public func render(into writer: inout HTMLWriter, context: RenderContext) {
        writer.write("<a")
        style.writeClass(into: &writer)
        writer.urlAttribute("href", url)
        writer.write(">")
        writer.text(title)
        writer.write("</a>")
    }
}

/// A button that submits a small form of its own (with the CSRF token when it posts).
public struct FormButton: Component {
    /// The button's label.
    public var title: String
    /// Where the form submits (relative or http(s); anything else is refused).
    public var action: String
    /// The form's method.
    public var method: FormMethod
    /// Hidden fields sent with the button, in order.
    public var fields: [(name: String, value: String)]
    /// The button's look.
    public var style: ButtonStyle

    /// Creates a button that submits `fields` to `action`.
    public init(title: String, action: String, method: FormMethod = .post,
                fields: [(name: String, value: String)] = [], style: ButtonStyle = .primary) {
        self.title = title
        self.action = action
        self.method = method
        self.fields = fields
        self.style = style
    }

    /// Writes `<form class="button-form">` with the hidden fields and the button.
    public func render(into writer: inout HTMLWriter, context: RenderContext) {
        writer.write("<form class=\"button-form\"")
        writer.attribute("method", method.rawValue)
        writer.urlAttribute("action", action)
        writer.write(">")
        if method == .post { writer.csrfField(context) }
        for field in fields {
            writer.hiddenField(field.name, field.value)
        }
        writer.write("<button type=\"submit\"")
        style.writeClass(into: &writer)
        writer.write(">")
        writer.text(title)
        writer.write("</button></form>")
    }
}

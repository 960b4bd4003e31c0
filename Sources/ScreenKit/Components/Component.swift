/// A small piece of markup that is not a controller: a button, a link.
///
/// Supporting views of an onboarding content are components, rendered by the template.
public protocol Component {
    /// Writes the component's markup.
    func render(into writer: inout HTMLWriter, context: RenderContext)
}

/// How a button looks; each maps to a class in `app.css`.
public enum ButtonStyle: Sendable {
    /// The main action of a screen.
    case primary
    /// Any other action.
    case secondary

    func writeClass(into writer: inout HTMLWriter) {
        switch self {
        case .primary: writer.write(" class=\"button button--primary\"")
        case .secondary: writer.write(" class=\"button button--secondary\"")
        }
    }
}

/// The HTTP method a form submits with.
public enum FormMethod: String, Sendable {
    /// Reads only: no CSRF token.
    case get
    /// Changes state: carries the `_csrf` token.
    case post
}

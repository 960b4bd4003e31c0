/// A step on the design system's spacing scale (see `--space-*` in `app.css`).
///
/// A fixed scale rather than free lengths because the CSP forbids `style` attributes: each step is
/// written as a data attribute that the stylesheet maps to a CSS custom property.
public enum InsetSize: String, Sendable, CaseIterable {
    /// No inset.
    case none
    /// Extra small (0.25rem).
    case xs
    /// Small (0.5rem).
    case sm
    /// Medium (1rem).
    case md
    /// Large (2rem).
    case lg
    /// Extra large (3.5rem): clears a corner button.
    case xl
}

/// Insets a container adds around its child, like UIKit's `additionalSafeAreaInsets`.
public struct EdgeInsets: Equatable, Sendable {
    /// Inset above the child's content.
    public var top: InsetSize
    /// Inset at the start of the line (left in LTR).
    public var leading: InsetSize
    /// Inset below the child's content.
    public var bottom: InsetSize
    /// Inset at the end of the line (right in LTR).
    public var trailing: InsetSize

    /// Creates insets; every edge defaults to none.
    public init(top: InsetSize = .none, leading: InsetSize = .none,
                bottom: InsetSize = .none, trailing: InsetSize = .none) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// No inset on any edge.
    public static let zero = EdgeInsets()

    /// Writes ` data-inset-EDGE="SIZE"` for every edge that has an inset.
    func write(into writer: inout HTMLWriter) {
        if top != .none { writer.attribute("data-inset-top", top.rawValue) }
        if leading != .none { writer.attribute("data-inset-leading", leading.rawValue) }
        if bottom != .none { writer.attribute("data-inset-bottom", bottom.rawValue) }
        if trailing != .none { writer.attribute("data-inset-trailing", trailing.rawValue) }
    }
}

/// How a child that replaced another enters, marked in the HTML for CSS / View Transitions.
public enum Transition: String, Sendable {
    /// The new child fades in over the old one's place.
    case crossFade = "cross-fade"
}

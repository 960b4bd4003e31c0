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

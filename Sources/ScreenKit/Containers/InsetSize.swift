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

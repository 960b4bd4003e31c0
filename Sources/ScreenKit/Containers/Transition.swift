/// How a child that replaced another enters, marked in the HTML for CSS / View Transitions.
public enum Transition: String, Sendable {
    /// The new child fades in over the old one's place.
    case crossFade = "cross-fade"
}

/// Per-request data handed down the whole render; plain values, ScreenKit knows nothing of HTTP.
public struct RenderContext: Sendable {
    /// Name of the hidden input that carries the CSRF token in state-changing forms.
    public static let csrfFieldName = "_csrf"

    /// The token every state-changing form posts back as `_csrf`.
    public var csrfToken: String
    /// Path of the current request (e.g. `/onboarding`), for `aria-current` and similar.
    public var path: String
    private var extras: [ObjectIdentifier: any Sendable] = [:]

    /// Creates a context for one render.
    public init(csrfToken: String, path: String = "/") {
        self.csrfToken = csrfToken
        self.path = path
    }

    /// Extra values keyed by type, so modules can add fields without changing ScreenKit.
    public subscript<Key: RenderContextKey>(key: Key.Type) -> Key.Value {
        get { extras[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { extras[ObjectIdentifier(key)] = newValue }
    }
}

/// A typed key for an extra `RenderContext` value (like SwiftUI's `EnvironmentKey`).
public protocol RenderContextKey {
    /// Type of the value stored under this key.
    associatedtype Value: Sendable
    /// Value read when none was set.
    static var defaultValue: Value { get }
}

extension HTMLWriter {
    /// Appends the hidden `_csrf` input that every state-changing form carries.
    public mutating func csrfField(_ context: RenderContext) {
        write("<input type=\"hidden\" name=\"_csrf\" value=\"")
        token(context.csrfToken)
        write("\">")
    }
}

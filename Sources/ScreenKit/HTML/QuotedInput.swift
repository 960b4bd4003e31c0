/// Text that quotes what a visitor typed, such as "Results for “…”": the quote is drawn
/// isolated, so a direction override or right-to-left text in it cannot reorder the words around.
public struct QuotedInput: ExpressibleByStringLiteral, Equatable, Sendable {
    public var before: String
    public var input: String
    public var after: String

    public init(_ before: String, _ input: String, _ after: String) {
        self.before = before
        self.input = input
        self.after = after
    }

    /// Text that quotes nothing.
    public init(stringLiteral value: String) { self.init(value, "", "") }

    /// As plain text (a page title, which holds no markup): the quote between the first strong
    /// isolate and the pop directional isolate, Unicode's counterparts of `<bdi>`.
    public var plainText: String {
        input.isEmpty ? before + after : before + "\u{2068}" + input + "\u{2069}" + after
    }
}

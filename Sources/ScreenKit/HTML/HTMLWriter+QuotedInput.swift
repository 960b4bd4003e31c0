extension HTMLWriter {
    /// Writes `quoted` escaped, its input in a `<bdi>`.
    public mutating func text(_ quoted: QuotedInput) {
        text(quoted.before)
        if !quoted.input.isEmpty {
            write("<bdi>")
            text(quoted.input)
            write("</bdi>")
        }
        text(quoted.after)
    }
}

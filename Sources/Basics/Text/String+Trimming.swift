extension StringProtocol {
    /// Without the spaces and tabs at either end (what Foundation calls `.whitespaces`: tab and
    /// the Unicode space separators).
    public func trimmingWhitespace() -> String {
        trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Without the white space and line breaks at either end (Foundation's `.whitespacesAndNewlines`).
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { $0.properties.isWhitespace }
    }

    /// Without the scalars at either end for which `drop` holds.
    @inlinable
    public func trimming(while drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }
}

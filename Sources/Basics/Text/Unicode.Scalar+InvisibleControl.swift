extension Unicode.Scalar {
    /// A C0, DEL or C1 control, a line or paragraph separator, or a bidirectional mark, embedding,
    /// override or isolate: no glyph of its own, it breaks a line, reaches a terminal or reorders
    /// the text around it (`a\u{202E}b` shows the rest of its paragraph backwards).
    public var isInvisibleControl: Bool {
        switch value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}

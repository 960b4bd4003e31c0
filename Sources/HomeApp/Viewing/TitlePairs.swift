/// Visitors per ordered pair of titles (numbers), `first << 32 | second`, both ways: what
/// Because you watched ranks. Kept apart from the visitors' titles so that the table that drops a
/// visitor or a title can take their pairs out in the same step.
struct TitlePairs {
    private(set) var counts: [UInt64: Int32] = [:]

    /// One visitor more (1) or less (-1) who started both `a` and `b`.
    mutating func change(_ a: UInt32, _ b: UInt32, by change: Int32) {
        let a = UInt64(a), b = UInt64(b)
        count(a << 32 | b, by: change)
        count(b << 32 | a, by: change)
    }

    private mutating func count(_ key: UInt64, by change: Int32) {
        let count = (counts[key] ?? 0) + change
        counts[key] = count > 0 ? count : nil
    }
}

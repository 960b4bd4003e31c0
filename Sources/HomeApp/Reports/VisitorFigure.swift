import Reporting

/// A count of distinct visitors as the report pages write it: exact counts as they are, estimates
/// with their error in visitors (one HyperLogLog standard error, 1.6%), so "98" is never read as
/// "98, not 97".
enum VisitorFigure {
    /// One standard error of an estimate of `count`, in visitors (at least one).
    static func margin(_ count: Int) -> Int {
        max(1, Int((Double(count) * HyperLogLog.standardError).rounded(.up)))
    }

    /// `12` or `≈ 12345 ± 198`.
    static func text(_ count: Int, exact: Bool) -> String {
        exact ? "\(count)" : "\u{2248}\u{202F}\(count) \u{00B1}\u{202F}\(margin(count))"
    }
}

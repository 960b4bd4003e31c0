/// How many trials per group a two-sided two-proportion z-test needs at 95% confidence and 80% power.
public enum SampleSize {
    /// The standard normal quantile for 80% power (z at 0.80).
    public static let z80 = 0.8416212335729143

    /// Trials per group to detect a change from `baseline` to `baseline + difference` (equal groups,
    /// no continuity correction; Fleiss, Levin and Paik, Statistical Methods for Rates and
    /// Proportions, 3rd ed., 2003, chapter 4):
    /// n = (z₀.₉₇₅·√(2·p̄·q̄) + z₀.₈₀·√(p₁q₁ + p₂q₂))² / (p₁ − p₂)², with p̄ the mean of p₁ and p₂.
    /// Nil when the difference is 0 or takes the rate outside [0, 1].
    public static func perGroup(baseline: Double, difference: Double) -> Int? {
        let p1 = baseline, p2 = baseline + difference
        guard difference != 0, difference.isFinite, (0...1).contains(p1), (0...1).contains(p2) else { return nil }
        let mean = (p1 + p2) / 2
        let root = Proportion.z95 * (2 * mean * (1 - mean)).squareRoot() + z80 * (p1 * (1 - p1) + p2 * (1 - p2)).squareRoot()
        let n = root * root / (difference * difference)
        guard n.isFinite, n < Double(Int.max / 2) else { return nil }
        return Int(n.rounded(.up))
    }
}

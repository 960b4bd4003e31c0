#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Student's t distribution with `degreesOfFreedom` (any real number above 0, as Welch's
/// approximation gives).
struct StudentT {
    let degreesOfFreedom: Double

    /// P(|T| ≥ |t|), the two-sided tail: I_{ν/(ν+t²)}(ν/2, 1/2), computed directly rather than as
    /// 2·(1 − cdf) so that small tails keep their digits.
    func twoSidedTail(_ t: Double) -> Double {
        guard t.isFinite else { return t.isNaN ? 1 : 0 }
        let nu = degreesOfFreedom
        return SpecialFunctions.regularizedBeta(nu / (nu + t * t), nu / 2, 0.5)
    }

    /// The t with P(|T| ≥ t) = `tail` (so `tail` 0.05 gives the 97.5% quantile), by bisection on the
    /// monotone tail: 200 halvings reach the precision of a double.
    func twoSidedQuantile(tail: Double) -> Double {
        precondition(tail > 0 && tail < 1)
        var low = 0.0, high = 1.0
        while twoSidedTail(high) > tail { high *= 2 }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if middle == low || middle == high { break }
            if twoSidedTail(middle) > tail { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}

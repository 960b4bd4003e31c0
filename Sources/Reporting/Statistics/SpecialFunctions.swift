#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The regularized incomplete beta and gamma functions, which give the Student t and chi-square
/// distributions. Continued fractions evaluated by the modified Lentz method (Press et al.,
/// Numerical Recipes, 3rd ed., 2007, §6.2 and §6.4): double precision to about 1e-14.
enum SpecialFunctions {
    static let epsilon = 1e-15
    static let tiny = 1e-300

    /// I_x(a, b), the regularized incomplete beta function, for a, b > 0 and x in [0, 1].
    static func regularizedBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)
        // The fraction converges fast below the mean (a+1)/(a+b+2); above it, the symmetry
        // I_x(a, b) = 1 − I_{1−x}(b, a) keeps it fast.
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * betaFraction(x, a, b) / a
        }
        return 1 - exp(logFront) * betaFraction(1 - x, b, a) / b
    }

    private static func betaFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let qab = a + b, qap = a + 1, qam = a - 1
        var c = 1.0, d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...100_000 {
            let m = Double(m), m2 = 2 * m
            var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d; if abs(d) < tiny { d = tiny }
            c = 1 + aa / c; if abs(c) < tiny { c = tiny }
            d = 1 / d; h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d; if abs(d) < tiny { d = tiny }
            c = 1 + aa / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < epsilon { break }
        }
        return h
    }

    /// Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function, for a > 0, x ≥ 0.
    static func regularizedUpperGamma(_ a: Double, _ x: Double) -> Double {
        guard x > 0 else { return 1 }
        let logFront = a * log(x) - x - lgamma(a)
        if x < a + 1 {
            // The series for P(a, x).
            var term = 1 / a, sum = term, ap = a
            for _ in 0..<100_000 {
                ap += 1; term *= x / ap; sum += term
                if abs(term) < abs(sum) * epsilon { break }
            }
            return max(0, 1 - sum * exp(logFront))
        }
        // The continued fraction for Q(a, x).
        var b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d
        for i in 1...100_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b; if abs(d) < tiny { d = tiny }
            c = b + an / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < epsilon { break }
        }
        return exp(logFront) * h
    }
}

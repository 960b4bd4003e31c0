import Basics

/// A share of visitors as an operator types it, in percent (12.5), and as the toggles file holds
/// it, a fraction (0.125). Converted by moving the decimal point in the text and rounding once, so
/// a share from the file shows as it reads there (7, not 7.000000000000001) and back the same.
enum SharePercent {
    /// `fraction` in percent, in the shortest text that reads back the same, as it would be typed.
    static func text(_ fraction: Double) -> String {
        TypedNumber.text(shifted(JSONText.number(fraction), by: 2) ?? fraction * 100)
    }

    /// The fraction for a percent as typed; nil when it is no decimal number as a person types
    /// one (`12.5`: not `+12.5`, `1.25e1` or `nan`).
    static func fraction(_ typed: String) -> Double? {
        guard TypedNumber.decimal(typed) != nil else { return nil }
        return shifted(typed, by: -2)
    }

    /// The number `text` reads times 10 to the power `places`.
    private static func shifted(_ text: String, by places: Int) -> Double? {
        let parts = text.lowercased().split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        guard let mantissa = parts.first, let exponent = parts.count == 2 ? Int(parts[1]) : 0,
              let value = Double("\(mantissa)e\(exponent + places)"), value.isFinite
        else { return nil }
        return value
    }
}

/// A number as a person types it into a form: decimal digits, and for a decimal one point.
/// Swift's parsers also take what no person means there (`+5`, `1e2`, `0x1p-2`, `nan`, `inf`);
/// a file's numbers are read as JSON defines them instead.
public enum TypedNumber {
    /// Digits alone, at most `maxDigits` of them (`5`, `0600`).
    public static func whole(_ text: some StringProtocol, maxDigits: Int = 18) -> Int? {
        guard (1...maxDigits).contains(text.utf8.count), text.utf8.allSatisfy(isDigit) else { return nil }
        return Int(text)
    }

    /// Digits with at most one point among or after them (`12`, `12.5`, `.5`, `12.`); finite.
    public static func decimal(_ text: some StringProtocol) -> Double? {
        let bytes = text.utf8
        guard bytes.contains(where: isDigit), bytes.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") }),
              bytes.lazy.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
              let value = Double(String(text)), value.isFinite
        else { return nil }
        return value
    }

    /// `value` as a person would type it: the shortest decimal that reads back the same, never in
    /// exponent form (`0.00001`, not `1e-05`), so a form drawn with it takes it back unchanged.
    public static func text(_ value: Double) -> String {
        let shortest = JSONText.number(value)
        guard let e = shortest.firstIndex(of: "e"), let exponent = Int(shortest[shortest.index(after: e)...]) else {
            return shortest
        }
        var mantissa = shortest[..<e]
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let digits = String(mantissa.filter { $0 != "." })
        // Where the point falls in `digits` once the exponent is applied.
        let point = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
        if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) }
        return sign + digits.prefix(point) + "." + digits.dropFirst(point)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}

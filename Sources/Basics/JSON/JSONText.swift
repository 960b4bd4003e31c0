#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one writer of JSON text: the pieces every document is written from, so escaping and the
/// forms of numbers are the same everywhere. A `JSONValue` writes itself with them (`text`);
/// documents whose key order or layout matters (the report documents, the toggles file) are put
/// together from them. The report log's lines have their own writer, on the hot path
/// (`ReportEvent`'s).
public enum JSONText {
    /// `value` as a JSON string, quotes included.
    public static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number as JSON: integers without a fraction, others in Swift's shortest form that
    /// reads back the same (`0.1`, `1e-05`); JSON has no infinity or NaN, so those become null.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A finite number with up to 6 significant decimals, never in exponent form: figures meant
    /// for reading (rates, intervals), not for reading back exactly.
    public static func rounded(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let text = String(printf: "%.6g", value)
        return text.contains("e") ? String(printf: "%.10f", value) : text
    }

    /// `{"name": n, …}` with the names sorted.
    public static func counts(_ counts: [String: Int]) -> String {
        "{" + counts.sorted { $0.key < $1.key }.map { "\(string($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }
}

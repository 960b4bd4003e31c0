import Basics
import Foundation
import Reporting

/// The bits of JSON text the report documents are written from: they are small, built off the
/// server's threads, and need exact control of key order and number format.
enum JSONText {
    /// A JSON string literal.
    static func string(_ value: String) -> String { JSONValue.quoted(value) }

    /// A finite number with up to 6 significant decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let text = String(format: "%.6g", value)
        return text.contains("e") ? String(format: "%.10f", value) : text
    }

    /// A report timestamp as a JSON string, or `null`.
    static func time(_ date: Date?) -> String {
        date.map { string(ReportTimestamp.string(from: $0)) } ?? "null"
    }

    /// `{"name": n, …}` with the names sorted.
    static func counts(_ counts: [String: Int]) -> String {
        "{" + counts.sorted { $0.key < $1.key }.map { "\(string($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    }
}

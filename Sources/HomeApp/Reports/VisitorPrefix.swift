import MicroHTTP
import Reporting

/// A visitor filter as the report pages show ids: their first `shown` characters. An id of 8 to
/// 31 hex digits is taken as the start of one, and stands for the one visitor of the range whose
/// id starts so; two or more make it ambiguous, and the response says which (a 400).
enum VisitorPrefix {
    /// How much of an id the events table shows (the whole id is its link and title).
    static let shown = 8
    static let fullLength = 32

    /// `filter` with a shortened visitor id replaced by the whole one it names in `range`. Kept as
    /// given when no id starts so (nothing matches, as the page then says).
    static func resolve(_ filter: ReportFilter, range: ReportRange, store: ReportStore) throws(HTTPError) -> ReportFilter {
        guard let given = filter.visitor, isPrefix(given) else { return filter }
        var resolved = filter
        resolved.visitor = try choose(given, among: store.visitors(startingWith: given.lowercased(), in: range, limit: 3))
        return resolved
    }

    /// The one id of `found` (up to three ids that start with `given`), or `given` when none does.
    static func choose(_ given: String, among found: [String]) throws(HTTPError) -> String {
        guard found.count < 2 else {
            let listed = found.prefix(2).joined(separator: ", ") + (found.count > 2 ? ", …" : "")
            throw HTTPError(.badRequest, "Several visitors' ids start with \(given.lowercased()) (\(listed)): give more of the id.")
        }
        return found.first ?? given
    }

    /// A visitor filter as typed or pasted: without the spaces around it, and in lower case when it
    /// is hex digits, as ids are written (the start of one is found so already); nil when empty.
    static func typed(_ text: String) -> String? {
        var trimmed = Substring(text)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        guard !trimmed.isEmpty else { return nil }
        return trimmed.allSatisfy { $0.isASCII && $0.isHexDigit } ? trimmed.lowercased() : String(trimmed)
    }

    /// Whether `text` can be the start of an id rather than a whole one: 8 to 31 hex digits.
    static func isPrefix(_ text: String) -> Bool {
        (shown..<fullLength).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
    }
}

/// The rows a query returned, as text (libpq's text format): small results for pages and bookkeeping.
public struct PostgresRows: Sendable {
    public let columns: [String]
    public let rows: [[String?]]

    public var count: Int { rows.count }

    /// The value in `row` of the column named `column`; nil for NULL or an unknown column.
    public func value(_ row: Int, _ column: String) -> String? {
        guard let index = columns.firstIndex(of: column) else { return nil }
        return rows[row][index]
    }

    public func int(_ row: Int, _ column: String) -> Int? { value(row, column).flatMap { Int($0) } }
}

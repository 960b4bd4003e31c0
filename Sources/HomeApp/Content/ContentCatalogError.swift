/// Why a content file was rejected, phrased for the person who edits it.
///
/// Renders as one line naming the file, the item's index (from 0, as in the JSON array) and the
/// field: `content.json: item 12: field "kind" must be one of long, short, live`; with the item's
/// id when known, `item 12 ("m-002")`.
public struct ContentCatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it.
    public let file: String
    /// Index of the offending item in `items`, nil for file-level problems.
    public let itemIndex: Int?
    /// The offending item's id, when the error is about another of its fields.
    public let itemID: String?
    /// The offending field, nil when the problem is not about one field.
    public let field: String?
    /// What is wrong, e.g. `must be one of long, short, live`.
    public let problem: String

    /// Creates an error; see the type's documentation for how it renders.
    public init(file: String, itemIndex: Int? = nil, itemID: String? = nil, field: String? = nil,
                problem: String) {
        self.file = file
        self.itemIndex = itemIndex
        self.itemID = itemID
        self.field = field
        self.problem = problem
    }

    /// The one-line message.
    public var description: String {
        var message = file
        if let itemIndex { message += ": item \(itemIndex)" }
        if let itemID { message += " (\"\(itemID)\")" }
        if let field {
            message += ": field \"\(field)\" \(problem)"
        } else {
            message += ": \(problem)"
        }
        return message
    }
}

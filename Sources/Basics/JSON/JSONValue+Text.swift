extension JSONValue {
    /// The value as compact JSON, object keys sorted (so equal values give equal text).
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return JSONText.number(value)
        case .string(let value): return JSONText.string(value)
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { JSONText.string($0.key) + ":" + $0.value.text }
                .joined(separator: ",") + "}"
        }
    }
}

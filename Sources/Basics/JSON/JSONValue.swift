#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An untyped JSON tree, so validation can say exactly which field is wrong
/// instead of surfacing a `DecodingError` coding path.
public enum JSONValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Names the JSON type, for messages like `must be a string, not a number`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A short description of the value for error messages: `1.5`, `a string "Grid"`, `true`, …
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): value.rounded() == value && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        case .string(let value): "a string \"\(value.prefix(40))\""
        case .array: "a list"
        case .object: "an object"
        }
    }
}

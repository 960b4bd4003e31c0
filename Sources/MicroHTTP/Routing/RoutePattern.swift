/// A path pattern such as `/long/:id` or `/assets/*path`.
public struct RoutePattern: Sendable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        /// Matches the rest of the path, one or more parts, joined by `/`.
        case remainder(String)
    }

    let parts: [Part]
    public let description: String

    public init(_ pattern: String) {
        description = pattern
        parts = pattern.split(separator: "/").map { part in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") { return .remainder(String(part.dropFirst())) }
            return .literal(String(part))
        }
        precondition(!parts.dropLast().contains { if case .remainder = $0 { true } else { false } },
                     "a *remainder must be the last part of \(pattern)")
    }

    /// The named parameters when `path` matches, else nil.
    func match(_ path: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(let text):
                guard index < path.count, path[index] == text else { return nil }
            case .parameter(let name):
                guard index < path.count else { return nil }
                parameters[name] = path[index]
            case .remainder(let name):
                guard index < path.count else { return nil }
                parameters[name] = path[index...].joined(separator: "/")
                return parameters
            }
        }
        return path.count == parts.count ? parameters : nil
    }
}

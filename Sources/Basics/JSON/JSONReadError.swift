#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a text is not a JSON document: where it is broken (`syntax`), or, for well-formed text that
/// still cannot be read (a number too large), what Foundation's parser says.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let syntax: JSONSyntaxError?
    /// Foundation's words, without a closing full stop; may be empty.
    public let detail: String

    public init(syntax: JSONSyntaxError?, detail: String) {
        self.syntax = syntax
        self.detail = detail
    }

    /// What follows "is not valid JSON" in a message: ` at line 3, column 12: expected ',' or '}'`,
    /// ` (Number 1e400 is not representable in Swift)`, or nothing.
    public var description: String {
        if let syntax { return " at \(syntax)" }
        return detail.isEmpty ? "" : " (\(detail))"
    }
}

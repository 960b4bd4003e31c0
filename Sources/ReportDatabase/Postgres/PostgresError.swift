import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What went wrong talking to PostgreSQL, sorted by what the caller should do about it.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached or the connection broke: retry later.
        case unavailable
        /// The server refused the login (password, pg_hba.conf, unknown role or database):
        /// retrying will not help until someone changes the configuration.
        case refused
        /// A statement failed; `sqlState` says why (e.g. `42501` permission denied).
        case statement
    }

    public let kind: Kind
    /// PostgreSQL's five-character error code, when the server sent one.
    public let sqlState: String?
    /// The server's or libpq's message, on one line.
    public let message: String

    public init(_ kind: Kind, sqlState: String? = nil, message: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    public var description: String {
        sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
    }

    /// Codes that mean the connection or server went away mid-statement (class 08, 57P0x shutdown).
    var isConnectionLoss: Bool {
        guard let sqlState else { return kind == .unavailable }
        return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P")
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One connection shared under a lock: opened on first use (`prepare`d the first time), reopened
/// after a failure. For `retryAfter` after a connection failed, a fail-fast use fails at once, so
/// a page does not wait on a database that was unreachable a moment ago.
final class HeldConnection: Sendable {
    private final class Held: @unchecked Sendable {
        // @unchecked: only touched with `lock` held.
        var connection: PostgresConnection?
        var prepared = false
        var failedAt: Date?
    }

    let url: String
    private let applicationName: String
    private let retryAfter: TimeInterval
    /// What a fail-fast use says while it holds off.
    private let unreachable: String
    /// A use that leaves the connection broken counts as a failed connection too.
    private let brokenUseFails: Bool
    private let prepare: @Sendable (PostgresConnection) throws -> Void
    private let lock = Mutex(())
    private let held = Held()

    init(url: String, applicationName: String, retryAfter: TimeInterval, unreachable: String, brokenUseFails: Bool,
         prepare: @escaping @Sendable (PostgresConnection) throws -> Void = { _ in }) {
        self.url = url
        self.applicationName = applicationName
        self.retryAfter = retryAfter
        self.unreachable = unreachable
        self.brokenUseFails = brokenUseFails
        self.prepare = prepare
    }

    /// Runs `body` on the held connection, opening it first if needed; a failure that leaves the
    /// connection unusable drops it.
    func with<T: Sendable>(failFast: Bool, _ body: (PostgresConnection) throws -> T) throws -> T {
        try lock.withLock { _ in
            if held.connection?.isUsable != true {
                held.connection = nil
                if failFast, let failedAt = held.failedAt, Date().timeIntervalSince(failedAt) < retryAfter {
                    throw PostgresError(.unavailable, message: unreachable)
                }
                do {
                    let connection = try PostgresConnection(url: url, applicationName: applicationName)
                    if !held.prepared {
                        try prepare(connection)
                        held.prepared = true
                    }
                    held.connection = connection
                    held.failedAt = nil
                } catch {
                    held.failedAt = Date()
                    throw error
                }
            }
            do {
                return try body(held.connection!)
            } catch {
                if held.connection?.isUsable != true {
                    held.connection = nil
                    if brokenUseFails { held.failedAt = Date() }
                }
                throw error
            }
        }
    }
}

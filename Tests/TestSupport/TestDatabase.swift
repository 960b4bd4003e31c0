import Foundation

/// A database of one test's own on the cluster the run shares (`TemporaryPostgres.shared`): no
/// test sees another's rows or notifications, and one costs a `CREATE DATABASE` instead of an
/// `initdb`. A test that stops PostgreSQL asks for a cluster of its own (`ownCluster`), so it
/// stops nobody else's. Dropped (or the own cluster removed) when released.
public final class TestDatabase: Sendable {
    public struct SharedCluster: Error, CustomStringConvertible { public let description: String }

    public let cluster: TemporaryPostgres
    public let name: String
    public let ownsCluster: Bool

    public init(ownCluster: Bool = false) throws {
        cluster = ownCluster ? try TemporaryPostgres() : try TemporaryPostgres.shared.get()
        ownsCluster = ownCluster
        name = "test_" + UUID().uuidString.lowercased().filter { $0 != "-" }
        try cluster.createDatabase(name)
    }

    /// The URL the instances and the library are given: the `postgres` superuser on this database.
    public var url: String { cluster.url(database: name) }

    /// Runs SQL in this database through `psql`; its unaligned, tuples-only output.
    public func psql(_ sql: String) throws -> String { try cluster.psql(sql, database: name) }

    /// Stops PostgreSQL, closing every connection (`crash`: at once, as a killed server): only on a
    /// cluster of the test's own.
    public func stop(crash: Bool = false) throws {
        guard ownsCluster else {
            throw SharedCluster(description: "stopping the shared cluster would stop every other test's database: ask for ownCluster")
        }
        try cluster.stop(crash: crash)
    }

    /// Starts PostgreSQL again after `stop`.
    public func start() throws { try cluster.start() }

    deinit {
        // WITH (FORCE): an instance or a shipper of the test may still hold a connection.
        if !ownsCluster { _ = try? cluster.psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
    }
}

import Foundation

/// A throwaway PostgreSQL cluster from the Debian package: `initdb` in a temporary folder, then
/// `pg_ctl` on a free loopback port, run as the `postgres` user when the tests run as root
/// (PostgreSQL refuses root). Stopped and removed when released. Tests take a database of their
/// own on the one cluster of the run (`shared`, through `TestDatabase`); a cluster of a test's own
/// is for a test that stops PostgreSQL.
public final class TemporaryPostgres: @unchecked Sendable {
    // @unchecked: every property is set once in init.
    public struct Unavailable: Error, CustomStringConvertible { public let description: String }

    public private(set) var port: UInt16 = 0
    private let directory: TemporaryDirectory
    private let binaries: URL
    private let asRoot: Bool

    /// A URL for the `postgres` database as the `postgres` superuser (trust on loopback).
    public var url: String { "postgresql://postgres@127.0.0.1:\(port)/postgres" }

    /// The URL of another database (created by `createDatabase`).
    public func url(database: String) -> String { "postgresql://postgres@127.0.0.1:\(port)/\(database)" }

    /// The binaries of the newest PostgreSQL installed, or nil.
    public static var binaryFolder: URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap { Int($0) }.sorted().last.map {
            root.appendingPathComponent("\($0)/bin")
        }.flatMap { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("pg_ctl").path) ? $0 : nil }
    }

    private let maxConnections: Int

    /// The cluster every test of the run shares, started at its first use and stopped when the
    /// test process exits; one a crashed run left behind is stopped first. Several suites' instances
    /// hold connections to it at once, hence the connection limit.
    public static let shared: Result<TemporaryPostgres, any Error> = {
        stopLeftovers()
        let result = Result { try TemporaryPostgres(maxConnections: 400, prefix: sharedPrefix) }
        if case .success(let cluster) = result {
            try? Data("\(getpid())".utf8).write(to: URL(fileURLWithPath: cluster.directory.path("owner")))
            atexit { if case .success(let cluster) = TemporaryPostgres.shared { cluster.stopAndRemove() } }
        }
        return result
    }()

    private static let sharedPrefix = "postgres-shared"

    /// Creates and starts the cluster; throws `Unavailable` when PostgreSQL is not installed.
    public convenience init() throws { try self.init(maxConnections: 50, prefix: "postgres") }

    private init(maxConnections: Int, prefix: String) throws {
        guard let binaries = Self.binaryFolder else {
            throw Unavailable(description: "PostgreSQL is not installed (Debian: apt-get install postgresql)")
        }
        self.binaries = binaries
        self.maxConnections = maxConnections
        asRoot = geteuid() == 0
        directory = try TemporaryDirectory(prefix)
        if asRoot {
            _ = try Self.run("/bin/chown", ["-R", "postgres:postgres", directory.url.path])
            _ = try Self.run("/bin/chmod", ["755", directory.url.path])
        }
        let initdb = try run("initdb", ["-D", directory.path("data"), "-U", "postgres", "--auth=trust",
                                        "--no-sync", "-E", "UTF8", "--locale=C"])
        guard initdb.status == 0 else { throw Unavailable(description: "initdb failed: \(initdb.output)") }
        // A free port may be taken by another test's server before PostgreSQL binds it: try another.
        var attempt = 0
        while true {
            port = try FreePort.find()
            do {
                try start()
                break
            } catch {
                attempt += 1
                let log = (try? String(contentsOfFile: directory.path("server.log"), encoding: .utf8)) ?? ""
                guard attempt < 3, log.contains("could not bind") || log.contains("already in use") else { throw error }
            }
        }
    }

    deinit {
        _ = try? run("pg_ctl", ["-D", directory.path("data"), "-m", "immediate", "-w", "stop"])
    }

    /// The shared cluster's end: a static is never released, so its deinit never runs.
    private func stopAndRemove() {
        _ = try? run("pg_ctl", ["-D", directory.path("data"), "-m", "immediate", "-w", "stop"])
        directory.remove()
    }

    /// Stops and removes the shared clusters of test processes that ended without stopping theirs.
    private static func stopLeftovers() {
        guard let binaries = binaryFolder else { return }
        let folder = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(sharedPrefix + "-") {
            let cluster = folder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: cluster.appendingPathComponent("owner"), encoding: .utf8),
                  let owner = pid_t(text), kill(owner, 0) != 0, errno == ESRCH else { continue }
            let arguments = ["-D", cluster.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"]
            let pgCtl = binaries.appendingPathComponent("pg_ctl").path
            if geteuid() == 0 {
                _ = try? run("/usr/sbin/runuser", ["-u", "postgres", "--", pgCtl] + arguments)
            } else {
                _ = try? run(pgCtl, arguments)
            }
            try? FileManager.default.removeItem(at: cluster)
        }
    }

    /// Starts the server (after `stop`) and waits until it accepts connections.
    public func start() throws {
        let options = "-p \(port) -c listen_addresses=127.0.0.1 -k \(directory.url.path) -c fsync=off "
            + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=\(maxConnections)"
        let started = try run("pg_ctl", ["-D", directory.path("data"), "-l", directory.path("server.log"),
                                         "-o", options, "-w", "-t", "60", "start"])
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: directory.path("server.log"), encoding: .utf8)) ?? ""
            throw Unavailable(description: "pg_ctl start failed: \(started.output) \(log.suffix(2000))")
        }
    }

    /// Stops the server, closing every connection (fast shutdown); `crash`: at once, as a
    /// `kill -9` would (immediate shutdown: no checkpoint, recovery from the WAL at the next start).
    public func stop(crash: Bool = false) throws {
        _ = try run("pg_ctl", ["-D", directory.path("data"), "-m", crash ? "immediate" : "fast", "-w", "stop"])
    }

    /// Runs SQL through `psql` and returns its unaligned, tuples-only output.
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try run("psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", database,
                                      "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
        guard result.status == 0 else { throw Unavailable(description: "psql failed: \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func createDatabase(_ name: String) throws {
        _ = try psql("CREATE DATABASE \(name)")
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let path = binaries.appendingPathComponent(tool).path
        if asRoot { return try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments) }
        return try Self.run(path, arguments)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try Subprocess.run(executable, arguments)
    }
}

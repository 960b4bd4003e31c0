import Foundation

/// Instances of the real executable on one test database (`TestDatabase`), as on machines of their
/// own: the set-up of every suite that runs several. Instance `i` is named `instance-i`, writes its
/// report log to `reports-i` in `folder`, shares the one secret, and takes `arguments(i)` besides.
/// Starting one returns once it follows the database (its viewing feed says so, which needs the
/// schema in place), so what any instance ships from then on reaches it. A restarted instance
/// comes back on its port, as a balancer in front expects.
public final class DatabaseInstances: @unchecked Sendable {
    // @unchecked: used from the one test that owns it.
    public static let secret = "a-secret-shared-by-every-instance"

    /// Toggles with an experiment `e` whose groups `a` and `b` draw the list and the grid.
    public static let listOrGridToggles =
        #"{"experiments": [{"name": "e", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}"#

    public let database: TestDatabase
    public let folder: TemporaryDirectory
    private let arguments: (Int) -> [String]
    /// The last process of each instance, kept after it stopped (its log stays readable).
    private var servers: [ServerProcess?]
    private var running: [Bool]
    private var ports: [UInt16]

    /// `count` instances; `files` (name and text) are written into `folder` first, and the
    /// instances started unless `started` is false. `ownCluster` for a test that stops PostgreSQL.
    public init(_ count: Int, folder prefix: String, ownCluster: Bool = false, files: [String: String] = [:],
                started: Bool = true, arguments: @escaping (Int, TemporaryDirectory) -> [String] = { _, _ in [] }) throws {
        database = try TestDatabase(ownCluster: ownCluster)
        let folder = try TemporaryDirectory(prefix)
        self.folder = folder
        for (name, text) in files { try folder.write(name, text) }
        self.arguments = { arguments($0, folder) }
        servers = Array(repeating: nil, count: count)
        running = Array(repeating: false, count: count)
        ports = Array(repeating: 0, count: count)
        if started { try startAll() }
    }

    /// The set-up of the suites that read every instance's events back: the shipped stylesheet
    /// and `listOrGridToggles`, with `arguments` for every instance besides.
    public static func runningListOrGrid(_ count: Int, folder prefix: String, ownCluster: Bool = false,
                                         arguments: [String] = []) throws -> DatabaseInstances {
        try DatabaseInstances(count, folder: prefix, ownCluster: ownCluster, files: ["toggles.json": listOrGridToggles]) { _, folder in
            ["--toggles", folder.path("toggles.json"), "--public", ServerProcess.publicFolder] + arguments
        }
    }

    /// Every instance started so far, in order; a stopped one until it starts again.
    public var instances: [ServerProcess] { servers.compactMap { $0 } }

    public subscript(index: Int) -> ServerProcess {
        guard let server = servers[index] else { preconditionFailure("instance-\(index) was never started") }
        return server
    }

    /// The database's URL and `psql`, for the suites' own queries.
    public var url: String { database.url }
    public func psql(_ sql: String) throws -> String { try database.psql(sql) }

    /// Starts every instance that is not running; returns once each follows the database.
    public func startAll() throws {
        for index in servers.indices where !running[index] { try start(index) }
    }

    /// Starts instance `index` (again, after `stop`). Without `waitingForTheDatabase` (the
    /// database is stopped) it returns once the instance listens.
    public func start(_ index: Int, waitingForTheDatabase: Bool = true) throws {
        let server = try ServerProcess(arguments: [
            "--port", "\(ports[index])", "--report-log", folder.path("reports-\(index)"), "--secret", Self.secret,
            "--report-database", database.url, "--instance", "instance-\(index)",
        ] + arguments(index))
        servers[index] = server
        running[index] = true
        ports[index] = server.port
        if waitingForTheDatabase { try server.waitUntilFollowingTheDatabase() }
    }

    /// Stops instance `index` with SIGTERM; its exit status (nil if it did not end).
    public func stop(_ index: Int) -> Int32? {
        self[index].signal(SIGTERM)
        running[index] = false
        return self[index].waitForExit()
    }

    /// Kills instance `index` with SIGKILL, as a machine that goes away.
    public func kill(_ index: Int) {
        self[index].signal(SIGKILL)
        running[index] = false
        _ = self[index].waitForExit()
    }

    /// Stops every instance; their exit statuses.
    public func stopAll() -> [Int32?] { servers.indices.filter { running[$0] }.map { stop($0) } }

    deinit {
        // The instances end before their database is dropped and their folder removed.
        servers.removeAll()
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The toggles' and the catalogue's versions in the report database (`config_versions`), and which
/// version each instance serves (`config_instances`). A new version is inserted under the next
/// number only: two instances applying at once cannot both take it, the second learns of a conflict.
/// One connection, opened on first use and dropped after a failure.
public final class DatabaseConfigVersions: Sendable {
    /// The channel a new version is announced on; the payload is `<kind>:<version>`.
    public static let channel = "config_versions"

    public struct Version: Sendable, Equatable {
        public var version: Int
        public var time: Date
        public var who: String
        public var note: String
        public var text: String
        public var instance: String

        public init(version: Int, time: Date, who: String, note: String, text: String, instance: String) {
            self.version = version
            self.time = time
            self.who = who
            self.note = note
            self.text = text
            self.instance = instance
        }
    }

    /// An instance and the version it last said it serves.
    public struct Server: Sendable, Equatable {
        public var instance: String
        public var version: Int
        public var seenAt: Date
    }

    /// After a failed connection, a page's questions (`servers`) fail at once for this long, so the
    /// page does not wait on a database that was unreachable a moment ago. Applies and the follower
    /// always try.
    private static let retryAfter: TimeInterval = 1

    public let url: String
    private let held: HeldConnection

    public init(url: String) {
        self.url = url
        held = HeldConnection(url: url, applicationName: "dynamic-home config", retryAfter: Self.retryAfter,
                              unreachable: "the database was unreachable moments ago", brokenUseFails: false,
                              prepare: { try ReportSchema.migrate($0) })
    }

    /// The newest version of `kind`, nil when there is none yet.
    public func latest(_ kind: String) throws -> Version? {
        try withConnection { connection in
            try Self.versions(connection.query("""
                SELECT version, extract(epoch FROM time)::float8 AS t, who, note, text, instance FROM config_versions
                WHERE kind = $1 ORDER BY version DESC LIMIT 1
                """, [kind])).first
        }
    }

    /// The newest version's number (cheap: no text), 0 when there is none.
    public func latestNumber(_ kind: String) throws -> Int {
        try withConnection { connection in
            try connection.query("SELECT coalesce(max(version), 0) AS v FROM config_versions WHERE kind = $1", [kind]).int(0, "v") ?? 0
        }
    }

    /// The versions of `kind` after `version`, oldest first.
    public func versions(_ kind: String, after version: Int) throws -> [Version] {
        try withConnection { connection in
            try Self.versions(connection.query("""
                SELECT version, extract(epoch FROM time)::float8 AS t, who, note, text, instance FROM config_versions
                WHERE kind = $1 AND version > $2::int ORDER BY version
                """, [kind, "\(version)"]))
        }
    }

    /// Inserts `version` unless its number is taken (false then) and announces it to every instance.
    public func insert(_ kind: String, _ version: Version) throws -> Bool {
        try withConnection { connection in
            let rows = try connection.query("""
                INSERT INTO config_versions (kind, version, time, who, note, text, instance)
                VALUES ($1, $2::int, to_timestamp($3::float8), $4, $5, $6, $7)
                ON CONFLICT (kind, version) DO NOTHING RETURNING version
                """, [kind, "\(version.version)", "\(version.time.timeIntervalSince1970)", version.who, version.note,
                      version.text, version.instance])
            guard rows.count == 1 else { return false }
            try connection.query("SELECT pg_notify($1, $2)", [Self.channel, "\(kind):\(version.version)"])
            return true
        }
    }

    /// Records that `instance` serves `version` of `kind` now.
    public func serving(_ instance: String, _ kind: String, version: Int) throws {
        _ = try withConnection { connection in
            try connection.query("""
                INSERT INTO config_instances (instance, kind, version, seen_at) VALUES ($1, $2, $3::int, now())
                ON CONFLICT (instance, kind) DO UPDATE SET version = excluded.version, seen_at = excluded.seen_at
                """, [instance, kind, "\(version)"])
        }
    }

    /// Every instance that said which version of `kind` it serves, by name.
    public func servers(_ kind: String) throws -> [Server] {
        try withConnection(orFailFast: true) { connection in
            let rows = try connection.query("""
                SELECT instance, version, extract(epoch FROM seen_at)::float8 AS t FROM config_instances
                WHERE kind = $1 ORDER BY instance
                """, [kind])
            return (0..<rows.count).compactMap { row in
                guard let instance = rows.value(row, "instance"), let version = rows.int(row, "version"),
                      let seen = rows.value(row, "t").flatMap(Double.init) else { return nil }
                return Server(instance: instance, version: version, seenAt: Date(timeIntervalSince1970: seen))
            }
        }
    }

    /// Keeps a reviewed upload for any instance to apply; uploads older than `lifetime` go.
    public func stage(_ id: String, text: String, filename: String, lifetime: TimeInterval) throws {
        _ = try withConnection { connection in
            try connection.query("DELETE FROM config_uploads WHERE staged_at < now() - make_interval(secs => $1::float8)",
                                 ["\(lifetime)"])
            return try connection.query("INSERT INTO config_uploads (id, text, filename) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
                                        [id, text, filename])
        }
    }

    /// A reviewed upload staged by any instance within `lifetime`.
    public func staged(_ id: String, lifetime: TimeInterval) throws -> (text: String, filename: String)? {
        try withConnection { connection in
            let rows = try connection.query("""
                SELECT text, filename FROM config_uploads WHERE id = $1 AND staged_at >= now() - make_interval(secs => $2::float8)
                """, [id, "\(lifetime)"])
            guard rows.count == 1, let text = rows.value(0, "text"), let filename = rows.value(0, "filename") else { return nil }
            return (text, filename)
        }
    }

    /// A connection of its own that `LISTEN`s for new versions (the schema brought up to date first).
    public func listener() throws -> PostgresConnection {
        let connection = try PostgresConnection(url: url, applicationName: "dynamic-home config")
        try ReportSchema.migrate(connection)
        try connection.listen(Self.channel)
        return connection
    }

    func withConnection<T: Sendable>(orFailFast failFast: Bool = false, _ body: (PostgresConnection) throws -> T) throws -> T {
        try held.with(failFast: failFast, body)
    }

    private static func versions(_ rows: PostgresRows) -> [Version] {
        (0..<rows.count).compactMap { row in
            guard let version = rows.int(row, "version"), let time = rows.value(row, "t").flatMap(Double.init),
                  let who = rows.value(row, "who"), let note = rows.value(row, "note"), let text = rows.value(row, "text"),
                  let instance = rows.value(row, "instance") else { return nil }
            return Version(version: version, time: Date(timeIntervalSince1970: time), who: who, note: note, text: text,
                           instance: instance)
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The report database's tables, created and migrated by the server: numbered migrations applied
/// in order, all pending ones in one transaction under an advisory lock (so instances starting
/// together migrate once), each recorded in `report_schema_version`.
public enum ReportSchema {
    /// Why the schema cannot be used: newer than this build knows, or not ours to change.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Migration `n` is `migrations[n - 1]`; append, never edit a released one. A migration may
    /// also fill its new tables from what is there (`backfills`).
    static let migrations: [String] = [
        """
        CREATE TABLE report_events (
            time timestamptz NOT NULL,
            instance text NOT NULL,
            name text NOT NULL,
            layout text,
            item text,
            visitor text,
            request text,
            properties jsonb NOT NULL DEFAULT '{}',
            segment text NOT NULL,
            "offset" bigint NOT NULL
        ) PARTITION BY RANGE (time);
        CREATE INDEX report_events_time ON report_events USING brin (time);
        CREATE TABLE report_minutes (
            minute timestamptz NOT NULL,
            instance text NOT NULL,
            name text NOT NULL,
            layout text NOT NULL DEFAULT '',
            events bigint NOT NULL,
            PRIMARY KEY (minute, instance, name, layout)
        );
        CREATE TABLE report_positions (
            instance text PRIMARY KEY,
            segment text NOT NULL,
            "offset" bigint NOT NULL,
            events bigint NOT NULL DEFAULT 0,
            shipped_at timestamptz NOT NULL DEFAULT now(),
            complete_until timestamptz
        );
        """,
        // Experiment rollups, so /reports/experiments reads a few rows per day, hour and minute
        // instead of every event's properties.
        """
        CREATE TABLE report_experiment_counts (
            span text NOT NULL CHECK (span IN ('minute', 'hour', 'day')),
            start timestamptz NOT NULL,
            instance text NOT NULL,
            experiment text NOT NULL,
            grp text NOT NULL,
            name text NOT NULL,
            layout text NOT NULL DEFAULT '',
            events bigint NOT NULL,
            PRIMARY KEY (span, start, instance, experiment, grp, name, layout)
        );
        CREATE TABLE report_experiment_sketches (
            span text NOT NULL CHECK (span IN ('hour', 'day')),
            start timestamptz NOT NULL,
            instance text NOT NULL,
            experiment text NOT NULL,
            grp text NOT NULL,
            registers bytea NOT NULL,
            PRIMARY KEY (span, start, instance, experiment, grp)
        );
        """,
        // Report sign-outs, read by every instance so one sign-out ends the session everywhere.
        """
        CREATE TABLE report_sign_outs (
            session text PRIMARY KEY,
            expires timestamptz NOT NULL
        );
        """,
        // The toggles' and the catalogue's versions, one truth for every instance, which version
        // each instance serves (written once a second), and uploads reviewed but not yet applied
        // (the "Apply" may reach another instance).
        """
        CREATE TABLE config_versions (
            kind text NOT NULL CHECK (kind IN ('toggles', 'content')),
            version integer NOT NULL CHECK (version > 0),
            time timestamptz NOT NULL DEFAULT now(),
            who text NOT NULL,
            note text NOT NULL,
            text text NOT NULL,
            instance text NOT NULL,
            PRIMARY KEY (kind, version)
        );
        CREATE TABLE config_instances (
            instance text NOT NULL,
            kind text NOT NULL,
            version integer NOT NULL,
            seen_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (instance, kind)
        );
        CREATE TABLE config_uploads (
            id text PRIMARY KEY,
            text text NOT NULL,
            filename text NOT NULL,
            staged_at timestamptz NOT NULL DEFAULT now()
        );
        """,
        // The report pages read every instance's events: newest first a page at a time (a btree
        // on time, which the BRIN index cannot order), by item and by visitor (or the start of an
        // id, hence byte order), and the toggles' and catalogue's changes for the charts' markers.
        """
        CREATE INDEX report_events_time_order ON report_events (time);
        CREATE INDEX report_events_item ON report_events (item, time);
        CREATE INDEX report_events_visitor ON report_events (visitor COLLATE "C", time);
        CREATE INDEX report_events_changes ON report_events (time) WHERE name IN ('toggles_changed', 'content_changed');
        """,
        // The experiments' exact visitor figures: a row per experiment and visitor, and their sums
        // per group, segment and day of first exposure, kept together in the shipping transaction.
        """
        CREATE TABLE report_experiment_visitors (
            experiment text NOT NULL,
            visitor bigint NOT NULL,
            grp text NOT NULL,
            segment smallint NOT NULL,
            day integer NOT NULL,
            first_ms bigint NOT NULL,
            views bigint NOT NULL,
            selections integer NOT NULL,
            flags smallint NOT NULL,
            PRIMARY KEY (experiment, visitor)
        ) WITH (fillfactor = 50);
        CREATE TABLE report_experiment_sums (
            experiment text NOT NULL,
            grp text NOT NULL,
            segment smallint NOT NULL,
            day integer NOT NULL,
            visitors bigint NOT NULL, converting bigint NOT NULL, converting_long bigint NOT NULL,
            converting_short bigint NOT NULL, converting_stream bigint NOT NULL, selections bigint NOT NULL,
            selection_squares bigint NOT NULL, views bigint NOT NULL, view_squares bigint NOT NULL,
            view_selection_products bigint NOT NULL, erroring bigint NOT NULL,
            PRIMARY KEY (experiment, grp, segment, day)
        );
        """,
        // Plays as an experiment metric: each visitor's plays started, and per cell the visitors who
        // played, Σ plays and Σ plays².
        """
        ALTER TABLE report_experiment_visitors ADD COLUMN plays bigint NOT NULL DEFAULT 0;
        ALTER TABLE report_experiment_sums ADD COLUMN playing bigint NOT NULL DEFAULT 0,
            ADD COLUMN plays bigint NOT NULL DEFAULT 0, ADD COLUMN play_squares bigint NOT NULL DEFAULT 0;
        """,
        // The visitors' changes as each batch shipped them, one row per batch, waiting to be folded
        // into the rows and sums (`VisitorFold`). Stored uncompressed: compressing megabytes in the
        // shipping transaction costs more than the WAL it saves.
        """
        CREATE TABLE report_visitor_changes (
            id bigserial PRIMARY KEY,
            instance text NOT NULL,
            appended_at timestamptz NOT NULL DEFAULT now(),
            changes text NOT NULL
        );
        ALTER TABLE report_visitor_changes ALTER COLUMN changes SET STORAGE EXTERNAL;
        """,
    ]

    /// Run right after the migration of the same version, in its transaction.
    static let backfills: [Int: @Sendable (PostgresConnection) throws -> Void] = [
        2: { try ExperimentBackfill.run($0) },
        // The visitor rows of migration 6 are filled once their plays column is there too.
        7: { try ExperimentBackfill.visitorsOrPlays($0) },
    ]

    /// The version this build writes.
    public static var currentVersion: Int { migrations.count }

    /// The lock key instances take while migrating or creating partitions ("dhreport").
    static let lockKey = 0x6468_7265_706f_7274

    /// Brings the schema to `currentVersion`; returns the version found before.
    @discardableResult
    public static func migrate(_ connection: PostgresConnection) throws -> Int {
        try connection.execute("BEGIN")
        do {
            try connection.query("SELECT pg_advisory_xact_lock($1)", ["\(lockKey)"])
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS report_schema_version (
                    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            let found = try connection.query("SELECT coalesce(max(version), 0) AS version FROM report_schema_version")
                .int(0, "version") ?? 0
            guard found <= currentVersion else {
                throw Refusal(description: "the report database's schema is version \(found), newer than this "
                    + "build's \(currentVersion): upgrade dynamic-home or point it at another database")
            }
            for version in stride(from: found + 1, through: currentVersion, by: 1) {
                try connection.execute(migrations[version - 1])
                try backfills[version]?(connection)
                try connection.query("INSERT INTO report_schema_version (version) VALUES ($1)", ["\(version)"])
            }
            try connection.execute("COMMIT")
            return found
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}

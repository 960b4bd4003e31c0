import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Reporting
import Synchronization

/// Every instance's report lines as they reach the database, for `/reports/stream`: one thread
/// on its own connection `LISTEN`s for the shippers' notifications (each names its instance) and
/// reads that instance's rows after the last one it passed on, in log order. Reconnects with
/// backoff when the database goes away, then reads every instance's rows it missed.
///
/// Rows are held for `hold` after their time and passed on in key order (time, instance,
/// segment, offset), so the stream is one order that any server reading the database agrees on:
/// a watcher's last key names everything it was sent. A row that reaches the feed after a later
/// key was passed on (its instance shipped it more than `hold` late) is passed on as late.
public final class DatabaseLineFeed: Startable {
    public let name: String
    /// Rows per query.
    static let pageRows = 5000
    /// How long a row is held after its time for the other instances' rows of that moment.
    public static let hold = 2.0
    /// The most rows held; past it the oldest go out at once.
    static let heldLimit = 65_536

    /// What the feed passes on in one go, in key order: rows that came too late for the order
    /// (every one before the last key already passed on), then rows in order.
    public struct Batch: Sendable {
        public var late: [DatabaseEvent] = []
        public var ordered: [DatabaseEvent] = []

        public init(late: [DatabaseEvent] = [], ordered: [DatabaseEvent] = []) {
            self.late = late
            self.ordered = ordered
        }
    }

    private struct Cursor {
        /// No later row of the instance is older (its timestamps only grow, and it ships in order).
        var time: String
        var segment = ""
        var offset: Int64 = -1
    }

    private let url: String
    private let application: String
    /// This feed's hold: `hold` for the stream's one order; 0 for a reader that needs no order
    /// across instances (the rows of each instance still come in its log's order).
    private let holdSeconds: Double
    /// Event names passed on (every one when nil), as a Postgres array literal.
    private let names: String?
    private let logger: Logger
    private let deliver: @Sendable (Batch) -> Void
    /// Rows read, waiting for their time to be `hold` old; touched on the feed's thread only.
    private let order = Mutex(Order())

    private struct Order {
        var held: [DatabaseEvent] = []
        var last: DatabaseEventKey?
    }
    private let stopping = Atomic<Bool>(false)
    /// Rung at shutdown: a backoff ends at once.
    private let doorbell = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)

    /// `deliver` gets each batch, on the feed's thread; `names` keeps the rows of those events alone.
    /// `application` names the connection in `pg_stat_activity`, so an operator (and a test) can
    /// tell the report stream's feed from other readers.
    public init(url: String, hold: Double = DatabaseLineFeed.hold, names: [String]? = nil,
                application: String = "dynamic-home report stream", logger: Logger,
                deliver: @escaping @Sendable (Batch) -> Void) {
        name = names == nil ? "report database feed" : "report database feed (\(names!.joined(separator: ", ")))"
        self.url = url
        self.application = application
        holdSeconds = hold
        self.names = names.map(PostgresArray.text)
        self.logger = logger
        self.deliver = deliver
    }

    public func start() throws {
        let worker = try WorkerThread(name: "report-db-feed") { [self] in run() }
        thread.withLock { $0 = worker }
    }

    public func shutdown() {
        stopping.store(true, ordering: .relaxed)
        doorbell.ring()
        thread.withLock { $0 }?.join()
    }

    private var stopped: Bool { stopping.load(ordering: .relaxed) }

    private func run() {
        // Lines shipped from now on; an instance first seen later starts a minute before this.
        let started = ReportTimestamp.string(from: Date().addingTimeInterval(-60))
        var cursors: [String: Cursor]?
        var backoff = 0.5
        while !stopped {
            do {
                let connection = try PostgresConnection(url: url, applicationName: application)
                try ReportSchema.migrate(connection)  // a new database: its tables before the first query
                try connection.listen("report_events")
                if cursors == nil { cursors = try initialCursors(connection) }
                // After a reconnect, whatever was shipped meanwhile.
                for instance in cursors!.keys.sorted() { try follow(instance, &cursors!, started: started, on: connection) }
                release()
                // Rows shipped from here on reach the feed: said once per connection, beside the warning below.
                logger.info("following the report database", metadata: ["feed": "\(application)"])
                backoff = 0.5
                while !stopped {
                    for instance in Set(try connection.notifications(waitingUpTo: 0.25)).sorted() {
                        try follow(instance, &cursors!, started: started, on: connection)
                    }
                    release()
                }
            } catch {
                logger.warning("cannot follow the report database; retrying",
                               metadata: ["feed": "\(application)", "error": "\(error)"])
                if !stopped { doorbell.wait(seconds: backoff) }
                backoff = min(backoff * 2, 5)
            }
        }
    }

    /// Each instance's shipped position: the stream starts after it.
    private func initialCursors(_ connection: PostgresConnection) throws -> [String: Cursor] {
        let rows = try connection.query("""
            SELECT instance, segment, "offset",
                   to_char((coalesce(complete_until, now()) - interval '1 minute') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            FROM report_positions
            """)
        var cursors: [String: Cursor] = [:]
        for row in rows.rows {
            guard let instance = row[0], let segment = row[1], let offset = row[2].flatMap({ Int64($0) }), let time = row[3] else { continue }
            cursors[instance] = Cursor(time: time, segment: segment, offset: offset - 1)
        }
        return cursors
    }

    /// Passes on the instance's rows after its cursor, a page at a time.
    private func follow(_ instance: String, _ cursors: inout [String: Cursor], started: String,
                        on connection: PostgresConnection) throws {
        var cursor = cursors[instance] ?? Cursor(time: started)
        while !stopped {
            let rows = try connection.query("""
                SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), instance, segment, "offset",
                       name, layout, item, visitor, request, properties::text
                FROM report_events
                WHERE instance = $1 AND time >= $2::timestamptz AND (segment, "offset") > ($3, $4::bigint)
                  AND ($6::text[] IS NULL OR name = ANY($6::text[]))
                ORDER BY time, segment, "offset" LIMIT $5::int
                """, [instance, cursor.time, cursor.segment, "\(cursor.offset)", "\(Self.pageRows)", names])
            guard let last = rows.rows.last else { break }
            cursor = Cursor(time: last[0] ?? cursor.time, segment: last[2] ?? cursor.segment,
                            offset: last[3].flatMap { Int64($0) } ?? cursor.offset)
            let events = rows.rows.compactMap(DatabaseEvent.init(row:))
            order.withLock { $0.held += events }
            // A backlog (after an outage) goes out page by page, not held whole.
            release()
            if rows.count < Self.pageRows { break }
        }
        cursors[instance] = cursor
    }

    /// Passes on the held rows whose time is `hold` old, in key order.
    private func release() {
        let horizon = ReportTimestamp.string(from: Date().addingTimeInterval(-holdSeconds))
        let batch = order.withLock { order -> Batch in
            guard !order.held.isEmpty else { return Batch() }
            order.held.sort { $0.key < $1.key }
            var due = order.held.prefix { $0.key.time <= horizon }.count
            due = max(due, order.held.count - Self.heldLimit)
            guard due > 0 else { return Batch() }
            var batch = Batch()
            for event in order.held[..<due] {
                if let last = order.last, event.key <= last { batch.late.append(event) } else { batch.ordered.append(event) }
            }
            order.held.removeFirst(due)
            if let newest = batch.ordered.last { order.last = newest.key }
            return batch
        }
        if !batch.late.isEmpty || !batch.ordered.isEmpty { deliver(batch) }
    }
}

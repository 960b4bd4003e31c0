import Basics
import Foundation
import Logging
import Reporting
import Synchronization

/// Every instance's report lines as they reach the database, for `/reports/stream`: one thread
/// on its own connection `LISTEN`s for the shippers' notifications (each names its instance) and
/// reads that instance's rows after the last one it passed on, in log order. Reconnects with
/// backoff when the database goes away, then reads every instance's rows it missed.
public final class SharedLineFeed: Service {
    public let name = "report database feed"
    /// Rows per query.
    static let pageRows = 5000

    private struct Cursor {
        /// No later row of the instance is older (its timestamps only grow, and it ships in order).
        var time: String
        var segment = ""
        var offset: Int64 = -1
    }

    private let url: String
    private let logger: Logger
    private let deliver: @Sendable ([String]) -> Void
    private let stopping = Atomic<Bool>(false)
    /// Rung at shutdown: a backoff ends at once.
    private let doorbell = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)

    /// `deliver` gets each batch of lines (no newlines), on the feed's thread.
    public init(url: String, logger: Logger, deliver: @escaping @Sendable ([String]) -> Void) {
        self.url = url
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
                let connection = try PostgresConnection(url: url, applicationName: "dynamic-home report stream")
                try connection.listen("report_events")
                if cursors == nil { cursors = try initialCursors(connection) }
                // After a reconnect, whatever was shipped meanwhile.
                for instance in cursors!.keys.sorted() { try follow(instance, &cursors!, started: started, on: connection) }
                backoff = 0.5
                while !stopped {
                    for instance in Set(try connection.notifications(waitingUpTo: 0.5)).sorted() {
                        try follow(instance, &cursors!, started: started, on: connection)
                    }
                }
            } catch {
                logger.warning("report stream cannot follow the report database; retrying", metadata: ["error": "\(error)"])
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
                ORDER BY time, segment, "offset" LIMIT $5::int
                """, [instance, cursor.time, cursor.segment, "\(cursor.offset)", "\(Self.pageRows)"])
            guard let last = rows.rows.last else { break }
            cursor = Cursor(time: last[0] ?? cursor.time, segment: last[2] ?? cursor.segment,
                            offset: last[3].flatMap { Int64($0) } ?? cursor.offset)
            deliver(rows.rows.compactMap { SharedLines.event($0)?.jsonLine })
            if rows.count < Self.pageRows { break }
        }
        cursors[instance] = cursor
    }
}

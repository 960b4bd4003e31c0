import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Reporting
import Synchronization

/// Copies the local report log into PostgreSQL, exactly once: each batch of new lines goes in by
/// COPY into the events table, its per-minute counts and experiment figures (counted while
/// reading) are added to the rollups, and the instance's position moves, all in one transaction.
/// The batch's experiment visitors are appended in that transaction too, and folded into their rows
/// and sums by a `VisitorFoldRunner` beside it.
/// After any failure (even a commit whose outcome is unknown) it reconnects and resumes from the
/// position the database holds, so a line is never shipped twice nor skipped. The local log stays
/// the outbox: while PostgreSQL is down pages and the log go on, and the shipper retries with
/// backoff, then catches up.
public final class ReportShipper: Startable {
    public let name = "report shipper"
    public let configuration: ShipperConfiguration
    private let source: SegmentSource
    private let logger: Logger
    private let state = Mutex(ShipperStatus())
    private let stopping = Atomic<Bool>(false)
    private let doorbell = Doorbell()
    private let thread = Mutex<WorkerThread?>(nil)
    /// The unreadable segment last logged and when: one line per segment and interval, not per retry.
    private let blockedLogged = Mutex<(segment: String, at: Date)?>(nil)
    /// Started once the schema is in place (nil when this instance does not fold).
    private let folds: VisitorFoldRunner?
    private let foldsStarted = Atomic<Bool>(false)

    public init(configuration: ShipperConfiguration, logger: Logger) {
        self.configuration = configuration
        source = SegmentSource(path: configuration.reportLog)
        self.logger = logger
        folds = configuration.foldInterval.map {
            VisitorFoldRunner(url: configuration.databaseURL, interval: $0, catchUpInterval: configuration.foldCatchUpInterval,
                              limit: configuration.foldBatches,
                              maxBackoff: configuration.maxBackoff, logger: logger)
        }
    }

    public var status: ShipperStatus {
        var status = state.withLock { $0 }
        if let folded = folds?.status {
            status.visitorFolds = folded.folds
            status.foldedBatches = folded.foldedBatches
            status.unfoldedBatches = folded.waiting
            status.unfoldedSince = folded.waitingSince
        }
        return status
    }

    /// True when every line of segment `name` is in the database, so local retention may delete it.
    public func mayDelete(segment name: String) -> Bool {
        guard let position = state.withLock({ $0.position }) else { return false }
        return name < position.segment
    }

    /// Checks the log now rather than at the next poll (after a write, say).
    public func wake() { doorbell.ring() }

    public func start() throws {
        let worker = try WorkerThread(name: "report-shipper") { [self] in run() }
        thread.withLock { $0 = worker }
    }

    /// Stops after the transaction in progress; what is not shipped yet goes at the next start.
    public func shutdown() {
        stopping.store(true, ordering: .relaxed)
        doorbell.ring()
        thread.withLock { $0 }?.join()
        folds?.shutdown()
    }

    // MARK: - The loop

    /// One connection and what is known on it.
    private struct Session {
        let connection: PostgresConnection
        var position: ShipPosition
        var partitions = EventPartitions()
        var lastTouch = Date.distantPast
        var lastHousekeeping = Date.distantPast
        /// The batch after the one in its transaction, being read meanwhile.
        var readAhead: ReadAhead?
    }

    private func run() {
        var session: Session?
        var backoff = 0.1
        var loggedFailure: String?
        while !stopping.load(ordering: .relaxed) {
            do {
                if session == nil {
                    session = try connect()
                    backoff = 0.1
                    if let folds, !foldsStarted.load(ordering: .relaxed) {
                        try folds.start()
                        foldsStarted.store(true, ordering: .relaxed)
                    }
                    if loggedFailure != nil {
                        logger.notice("report database reachable again; shipping resumes",
                                      metadata: ["position": "\(session!.position)"])
                    }
                    loggedFailure = nil
                }
                if try !shipOnce(&session!) {
                    let blocked = state.withLock { $0.blocked != nil }
                    doorbell.wait(seconds: blocked ? configuration.unreadableRetry : configuration.pollInterval)
                }
            } catch {
                folds?.shipping(catchingUp: false)
                session?.connection.close()
                _ = session?.readAhead?.take()
                session = nil
                let refused = Self.isRefusal(error)
                let message = "\(error)"
                state.withLock {
                    $0.connected = false
                    $0.errors += 1
                    $0.lastError = message
                    $0.refused = refused
                }
                // One line per kind of trouble (down, or refused), not one per attempt.
                let kind = refused ? "refused" : "unavailable"
                if loggedFailure != kind {
                    if refused {
                        logger.error("the report database refused this server; events stay in the local log until that is fixed",
                                     metadata: ["error": "\(message)"])
                    } else {
                        logger.warning("report database unavailable; events stay in the local log, retrying",
                                       metadata: ["error": "\(message)"])
                    }
                    loggedFailure = kind
                }
                doorbell.wait(seconds: refused ? configuration.refusedBackoff : backoff)
                backoff = min(backoff * 2, configuration.maxBackoff)
            }
        }
        _ = session?.readAhead?.take()
        session?.connection.close()
    }

    private static func isRefusal(_ error: any Error) -> Bool {
        if error is ReportSchema.Refusal { return true }
        guard let error = error as? PostgresError else { return false }
        return error.kind == .refused || (error.kind == .statement && error.sqlState.map {
            $0 == "42501" || $0.hasPrefix("28") || $0 == "3D000" || $0 == "25006"
        } ?? false)
    }

    private func connect() throws -> Session {
        let connection = try PostgresConnection(url: configuration.databaseURL)
        try ReportSchema.migrate(connection)
        try connection.execute("""
            CREATE TEMP TABLE report_minute_staging (minute timestamptz, name text, layout text, events bigint)
            ON COMMIT DELETE ROWS
            """)
        try connection.execute(ExperimentFigures.stagingSQL)
        try connection.execute(ExperimentVisitorRows.stagingSQL)
        try connection.query("""
            INSERT INTO report_positions (instance, segment, "offset") VALUES ($1, '', 0)
            ON CONFLICT (instance) DO NOTHING
            """, [configuration.instance])
        var session = Session(connection: connection, position: try storedPosition(connection))
        try housekeeping(&session)
        state.withLock {
            $0.connected = true
            $0.lastError = nil
            $0.refused = false
            $0.position = session.position
        }
        return session
    }

    private func storedPosition(_ connection: PostgresConnection, lock: Bool = false) throws -> ShipPosition {
        let rows = try connection.query(
            "SELECT segment, \"offset\" FROM report_positions WHERE instance = $1" + (lock ? " FOR UPDATE" : ""),
            [configuration.instance])
        guard rows.count == 1 else { return .start }
        return ShipPosition(segment: rows.value(0, "segment") ?? "", offset: Int64(rows.value(0, "offset") ?? "") ?? 0)
    }

    /// Today's and tomorrow's partitions made ahead; partitions past the retention dropped. Hourly.
    private func housekeeping(_ session: inout Session) throws {
        let now = Date()
        guard now.timeIntervalSince(session.lastHousekeeping) >= 3600 else { return }
        let today = EventPartitions.day(ms: Int64(now.timeIntervalSince1970 * 1000))
        try session.partitions.ensure([today, today + 1], on: session.connection)
        if let days = configuration.retentionDays {
            let dropped = try session.partitions.dropBefore(day: today - Int64(max(days, 1)) + 1, on: session.connection)
            if !dropped.isEmpty {
                logger.notice("dropped report partitions past the retention", metadata: ["partitions": "\(dropped.joined(separator: " "))"])
            }
        }
        session.lastHousekeeping = now
    }

    /// Ships one batch; false when there was nothing new.
    private func shipOnce(_ session: inout Session) throws -> Bool {
        try housekeeping(&session)
        var readAt = Date()
        let start = session.position
        var batch: ShipBatch
        let ahead = session.readAhead.map { ($0.start, $0.take()) }
        session.readAhead = nil
        if let (from, read) = ahead, from == start, let read {
            (batch, readAt) = read
        } else {
            batch = ShipBatch.read(source, from: start, maxLines: configuration.batchLines, instance: configuration.instance)
        }
        if let missing = batch.missingSegment {
            logger.warning("a report segment the shipper had not finished is gone; its remaining lines are lost",
                           metadata: ["segment": "\(missing)"])
        }
        if batch.tornBytes > 0 {
            logger.warning("skipped an incomplete last line of a closed segment", metadata: ["bytes": "\(batch.tornBytes)"])
        }
        noteBlocked(batch.blocked)
        guard batch.end != start else {
            if batch.reachedEnd {
                folds?.shipping(catchingUp: false)
                state.withLock { $0.completeUntil = readAt }
                // Now and then, say so in the database too (and notice a dead connection).
                if readAt.timeIntervalSince(session.lastTouch) >= configuration.heartbeatInterval {
                    try session.connection.query(
                        "UPDATE report_positions SET complete_until = $2 WHERE instance = $1",
                        [configuration.instance, Self.timestamp(readAt)])
                    session.lastTouch = readAt
                }
            }
            return false
        }
        try session.partitions.ensure(batch.days, on: session.connection)
        if !batch.reachedEnd {
            folds?.shipping(catchingUp: true)
            session.readAhead = ReadAhead(source, from: batch.end, maxLines: configuration.batchLines, instance: configuration.instance)
        }
        let connection = session.connection
        // At the end of what was written, complete up to the read; else up to the newest event shipped.
        let completeUntil = batch.reachedEnd ? readAt
            : batch.newestMs.map { ReportTimestamp.date(milliseconds: $0) } ?? state.withLock { $0.completeUntil } ?? .distantPast
        try connection.execute("BEGIN")
        do {
            let stored = try storedPosition(connection, lock: true)
            guard stored == start else {
                // Only another process shipping under the same --instance gets here.
                try connection.execute("ROLLBACK")
                logger.warning("the stored position moved under this shipper; is another server using the same --instance?",
                               metadata: ["expected": "\(start)", "found": "\(stored)"])
                session.position = stored
                return true
            }
            if batch.rows.count > 0 {
                // Straight into the partitioned table (COPY routes rows to their day), then the
                // batch's per-minute counts, counted while reading, added to the rollup.
                var events = [batch.rows.bytes, EventRows.trailer][...]
                try connection.copyIn("COPY report_events (\(EventRows.columns)) FROM STDIN (FORMAT binary)") { events.popFirst() }
                var minutes: [UInt8]? = batch.minuteRows
                try connection.copyIn("COPY report_minute_staging FROM STDIN") { defer { minutes = nil }; return minutes }
                try connection.query("""
                    INSERT INTO report_minutes (minute, instance, name, layout, events)
                    SELECT minute, $1, name, layout, events FROM report_minute_staging
                    ON CONFLICT (minute, instance, name, layout) DO UPDATE SET events = report_minutes.events + excluded.events
                    """, [configuration.instance])
                try batch.experiments.write(connection, instance: configuration.instance)
                try ExperimentVisitorRows.append(batch.visitorRows, instance: configuration.instance, connection)
            }
            try connection.query("""
                UPDATE report_positions SET segment = $2, "offset" = $3, events = events + $4, shipped_at = now(),
                    complete_until = greatest(complete_until, $5::timestamptz)
                WHERE instance = $1
                """, [configuration.instance, batch.end.segment, "\(batch.end.offset)", "\(batch.rows.count)",
                      Self.timestamp(completeUntil)])
            if batch.rows.count > 0 {
                try connection.query("SELECT pg_notify('report_events', $1)", [configuration.instance])
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        session.position = batch.end
        session.lastTouch = readAt
        folds?.shipping(catchingUp: !batch.reachedEnd, appended: !batch.visitorRows.isEmpty)
        for (segment, from) in batch.skipped {
            logger.warning(
                "skipped a damaged report segment on purpose (released by an operator); its events are not in the database",
                metadata: ["segment": "\(segment.file)", "from offset": "\(from)",
                           "events not shipped": "\(segment.events.map { from > 0 ? "up to \($0)" : "\($0)" } ?? "unknown")",
                           "reason": "\(segment.reason)"])
        }
        state.withLock {
            $0.position = batch.end
            $0.skippedSegments += batch.skipped.count
            $0.shippedEvents += batch.rows.count
            $0.batches += 1
            $0.malformedLines += batch.malformed
            $0.completeUntil = max($0.completeUntil ?? completeUntil, completeUntil)
        }
        return true
    }

    /// Records where the shipper is stopped (nil: not stopped): counted at each try, logged once
    /// per segment and `unreadableLogInterval`, and once more when it goes on.
    private func noteBlocked(_ blocked: (segment: String, reason: String)?) {
        guard let blocked else {
            guard let was = state.withLock({ status -> String? in defer { status.blocked = nil }; return status.blocked }) else { return }
            blockedLogged.withLock { $0 = nil }
            logger.notice("the report shipper goes on past the segment it could not read", metadata: ["was": "\(was)"])
            return
        }
        state.withLock {
            $0.blocked = "\(blocked.segment): \(blocked.reason)"
            $0.unreadableReads += 1
        }
        let now = Date()
        let due = blockedLogged.withLock { last -> Bool in
            if let last, last.segment == blocked.segment, now.timeIntervalSince(last.at) < configuration.unreadableLogInterval { return false }
            last = (blocked.segment, now)
            return true
        }
        guard due else { return }
        logger.error(
            "a report segment cannot be read; shipping waits at it (see `dynamic-home reports check`)",
            metadata: ["segment": "\(blocked.segment)", "reason": "\(blocked.reason)",
                       "position": "\(state.withLock { $0.position }?.description ?? "")"])
    }

    private static func timestamp(_ date: Date) -> String { ReportTimestamp.string(from: date) }
}

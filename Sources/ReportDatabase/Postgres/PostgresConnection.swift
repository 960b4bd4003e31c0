import Basics
import CPostgres
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// One blocking connection to PostgreSQL through libpq. Owned by one thread at a time (the
/// shipper's, or a page query's under `PostgresPool`'s lock), hence not `Sendable`.
///
/// libpq rather than an event-loop client: the server has no event loop to share, the calls run
/// on the shipper's own thread, and COPY (the fast path for batches) is two plain calls.
public final class PostgresConnection {
    private var handle: OpaquePointer?

    /// Connects to `url` (`postgresql://user:password@host:port/database?...`, or key=value
    /// pairs). Unless the URL says otherwise, gives up connecting after 5 s and notices a dead
    /// server within about 10 s (TCP keepalives and a user timeout), so a stopped database
    /// never hangs a thread for long.
    public init(url: String, applicationName: String = "dynamic-home") throws(PostgresError) {
        try Self.loadLibrary()
        // With expand_dbname, parameters in the URL override the defaults listed before it.
        let pairs: [(String, String)] = [
            ("connect_timeout", "5"), ("keepalives", "1"), ("keepalives_idle", "5"),
            ("keepalives_interval", "2"), ("keepalives_count", "3"), ("tcp_user_timeout", "10000"),
            ("application_name", applicationName), ("dbname", url),
        ]
        let keys = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer { (keys + values).forEach { free($0) } }
        let connection = (keys + [nil]).withUnsafeBufferPointer { keyPointer in
            (values + [nil]).withUnsafeBufferPointer { valuePointer in
                keyPointer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { k in
                    valuePointer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { v in
                        PQconnectdbParams(k.baseAddress, v.baseAddress, 1)
                    }
                }
            }
        }
        guard let connection else { throw PostgresError(.unavailable, message: "out of memory connecting") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(Self.isRefusal(message) ? .refused : .unavailable, message: message)
        }
        handle = connection
        // Quiet: NOTICEs (e.g. "relation already exists, skipping") would go to stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { close() }

    /// Loads libpq, once: a server without a database never maps it (`CPostgres`).
    static func loadLibrary() throws(PostgresError) {
        var error = [CChar](repeating: 0, count: 256)
        guard dh_pq_load(&error, error.count) == 0 else { return }
        throw PostgresError(.unavailable, message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Closes the connection; later calls fail as unavailable.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// False once the connection broke (the server went away or restarted).
    public var isUsable: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Runs one or more statements without parameters or results (`BEGIN`, DDL, …).
    public func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(try connection(), sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs one statement with `$1`, `$2`, … bound to `parameters` (text; nil is NULL).
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
        let connection = try connection()
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let result = copies.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                PQexecParams(connection, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
            }
        }
        defer { PQclear(result) }
        try check(result)
        return rows(result!)
    }

    /// `COPY … FROM STDIN`: `produce` is called until it returns nil, each chunk sent as it comes
    /// (text format: tab-separated columns, `\N` for NULL, one row per line).
    public func copyIn(_ sql: String, _ produce: () -> [UInt8]?) throws(PostgresError) {
        let connection = try connection()
        let start = PQexec(connection, sql)
        let status = PQresultStatus(start)
        if status != PGRES_COPY_IN {
            defer { PQclear(start) }
            try check(start)
            throw PostgresError(.statement, message: "\(sql) did not start a COPY")
        }
        PQclear(start)
        var failure: PostgresError?
        while let chunk = produce() {
            guard !chunk.isEmpty else { continue }
            let sent = chunk.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) }
            }
            if sent != 1 {
                failure = lastError(default: "COPY data could not be sent")
                break
            }
        }
        if PQputCopyEnd(connection, failure == nil ? nil : "aborted") != 1, failure == nil {
            failure = lastError(default: "COPY could not be ended")
        }
        // Every result must be read before the next command, even after a failure.
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            do throws(PostgresError) { try check(result) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// `LISTEN channel`, then call `notifications(waitingUpTo:)` to receive.
    public func listen(_ channel: String) throws(PostgresError) {
        try execute("LISTEN \(Self.identifier(channel))")
    }

    /// Waits up to `seconds` for notifications and returns their payloads (empty on time-out).
    public func notifications(waitingUpTo seconds: Double) throws(PostgresError) -> [String] {
        let connection = try connection()
        var payloads = drainNotifications(connection)
        guard payloads.isEmpty else { return payloads }
        var poller = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        _ = poll(&poller, 1, Int32(seconds * 1000))
        guard PQconsumeInput(connection) == 1 else { throw lastError(default: "connection lost") }
        payloads = drainNotifications(connection)
        return payloads
    }

    /// A name quoted for SQL: `"…"` with inner quotes doubled.
    public static func identifier(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    /// A string constant for SQL: `'…'` with inner quotes doubled (standard_conforming_strings).
    public static func literal(_ text: String) -> String {
        "'" + text.replacing("'", with: "''") + "'"
    }

    // MARK: - Results

    private func connection() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw PostgresError(.unavailable, message: "the connection is closed") }
        return handle
    }

    private func check(_ result: OpaquePointer?) throws(PostgresError) {
        guard let result else { throw lastError(default: "no result (out of memory or connection lost)") }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN, PGRES_EMPTY_QUERY:
            return
        default:
            let message = String(cString: PQresultErrorMessage(result))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let error = PostgresError(.statement, sqlState: state, message: message)
            if let handle, PQstatus(handle) != CONNECTION_OK || (state == nil && message.isEmpty) {
                throw PostgresError(.unavailable, sqlState: state, message: message.isEmpty ? lastMessage : message)
            }
            throw error.isConnectionLoss ? PostgresError(.unavailable, sqlState: state, message: message) : error
        }
    }

    private func rows(_ result: OpaquePointer) -> PostgresRows {
        let columnCount = PQnfields(result)
        let rowCount = PQntuples(result)
        let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        let rows = (0..<rowCount).map { row in
            (0..<columnCount).map { column -> String? in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
        return PostgresRows(columns: columns, rows: rows)
    }

    private var lastMessage: String { handle.map { String(cString: PQerrorMessage($0)) } ?? "" }

    private func lastError(default text: String) -> PostgresError {
        let message = lastMessage
        return PostgresError(.unavailable, message: message.isEmpty ? text : message)
    }

    private func drainNotifications(_ connection: OpaquePointer) -> [String] {
        var payloads: [String] = []
        while let notification = PQnotifies(connection) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    /// Login refusals that retrying will not cure (libpq gives no SQLSTATE before a connection).
    static func isRefusal(_ message: String) -> Bool {
        ["authentication failed", "no pg_hba.conf entry", "does not exist", "password is required",
         "permission denied", "pg_hba.conf rejects", "invalid connection option", "invalid URI",
         "missing \"=\"", "SSL is not enabled"].contains { message.contains($0) }
    }
}

import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging
import ReportDatabase
import Synchronization

/// Report sign-ins ended before they lapse ("Sign out"): each session id is kept until the
/// moment its cookie would have expired. They are appended to a file beside the report log, so
/// a restart still refuses them, and with a report database recorded there at once, in a table
/// every instance reads once a second: a sign-out on one instance ends the session on all of
/// them within about a second.
final class SignOuts: Startable {
    let name = "sign-outs"
    static let fileName = "sign-outs"
    /// The most sessions kept; past it the ones nearest their expiry go first.
    static let limit = 100_000

    private struct State {
        var sessions: [String: Int] = [:]
        /// Recorded here, not yet in the database.
        var unshared: [(session: String, expiry: Int)] = []
    }

    private let state = Mutex(State())
    private let path: String
    private let database: DatabaseReports?
    private let logger: Logger
    private let now: @Sendable () -> Int
    private let poller = Mutex<PeriodicTask?>(nil)
    /// Seconds between two reads of the other instances' sign-outs.
    private let interval: Double

    init(directory: String, database: DatabaseReports?, logger: Logger, interval: Double = 1,
         now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }) {
        self.interval = interval
        path = PathText.join(directory, Self.fileName)
        self.database = database
        self.logger = logger
        self.now = now
        loadFile()
    }

    /// Whether the session was signed out (and has not lapsed since).
    func contains(_ session: Substring) -> Bool {
        state.withLock { state in state.sessions[String(session)].map { $0 > now() } ?? false }
    }

    /// Ends `session`, which lapses by itself at `expiry`: in memory at once, then on disk and,
    /// with a database, there from the poller's thread, woken for it: waiting for its next tick
    /// made the other instances learn of it up to two periods late.
    func add(_ session: String, until expiry: Int) {
        state.withLock { state in
            state.sessions[session] = expiry
            if database != nil { state.unshared.append((session, expiry)) }
            Self.trim(&state.sessions, now: now())
        }
        append("\(expiry) \(session)\n")
        if database != nil { poller.withLock { $0 }?.runNow() }
    }

    func start() throws {
        guard let database else { return }
        let task = PeriodicTask(name: "sign-outs", every: interval) { [self] in share(with: database) }
        poller.withLock { $0 = task }
        try task.start()
    }

    func shutdown() { poller.withLock { $0 }?.shutdown() }

    /// Sends what this instance recorded and takes what the others did.
    private func share(with database: DatabaseReports) {
        let pending = state.withLock { state in
            defer { state.unshared.removeAll() }
            return state.unshared
        }
        do {
            try database.recordSignOuts(pending.map { ($0.session, $0.expiry) })
            let shared = try database.signOuts()
            state.withLock { state in
                for (session, expiry) in shared where state.sessions[session] == nil {
                    state.sessions[session] = expiry
                }
                Self.trim(&state.sessions, now: now())
            }
        } catch {
            // Kept for the next round: a sign-out is never forgotten because the database was down.
            state.withLock { $0.unshared.insert(contentsOf: pending, at: 0) }
            logger.warning("sign-outs not shared with the report database", metadata: ["error": "\(error)"])
        }
    }

    private static func trim(_ sessions: inout [String: Int], now: Int) {
        guard sessions.count > limit else { return }
        sessions = sessions.filter { $0.value > now }
        while sessions.count > limit, let soonest = sessions.min(by: { $0.value < $1.value }) {
            sessions[soonest.key] = nil
        }
    }

    private func loadFile() {
        // Read as bytes: one byte that is not UTF-8 costs its line, not every sign-out (read as a
        // `String`, the whole file failed and a restart forgot them all).
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let bytes = FileManager.default.contents(atPath: path) else {
            logger.error("the sign-outs file cannot be read; sign-outs before this start are not refused",
                         metadata: ["file": "\(path)"])
            return
        }
        let now = now()
        var sessions: [String: Int] = [:]
        var unreadable = 0, lapsed = 0
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 2, let expiry = Int(words[0]), words[1].utf8.count <= 64,
                  words[1].utf8.allSatisfy(Base64URL.isAlphabet) else { unreadable += 1; continue }
            if expiry > now { sessions[String(words[1])] = expiry } else { lapsed += 1 }
        }
        if unreadable > 0 {
            // Kept as it was for whoever looks into it; the file is written anew below.
            let aside = path + ".damaged-\(now)"
            let kept = rename(path, aside) == 0 ? aside : "nothing: it could not be renamed"
            logger.warning("lines of the sign-outs file could not be read and were skipped",
                           metadata: ["file": "\(path)", "lines": "\(unreadable)", "kept": "\(kept)"])
        }
        if unreadable > 0 || lapsed > sessions.count {
            // Damaged, or mostly lapsed: written anew with what still counts, so it never grows for ever.
            let kept = sessions.map { "\($0.value) \($0.key)\n" }.joined()
            try? AtomicFile.write(Array(kept.utf8), to: path)
        }
        state.withLock { state in
            state.sessions = sessions
            if database != nil { state.unshared = sessions.map { ($0.key, $0.value) } }
        }
    }

    /// Appends one line and syncs it: a sign-out answered is one a restart remembers.
    private func append(_ line: String) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            logger.error("the sign-outs file cannot be written; this sign-out lasts until a restart",
                         metadata: ["file": "\(path)", "errno": "\(errno)"])
            return
        }
        defer { close(fd) }
        let bytes = Array(line.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written != bytes.count || fsync(fd) != 0 {
            logger.error("the sign-outs file cannot be written; this sign-out lasts until a restart",
                         metadata: ["file": "\(path)", "errno": "\(errno)"])
        }
    }
}

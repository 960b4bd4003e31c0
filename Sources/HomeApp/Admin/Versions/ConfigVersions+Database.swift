import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReportDatabase

/// With a report database the versions live there, numbered there: an apply inserts the next
/// number (taken already: a conflict), every instance installs new versions as the follower
/// learns of them, and the local history and file keep the last one for a restart during an
/// outage. Called with `serial` held, but for `catchUp`.
extension ConfigVersions: DatabaseFollowing {
    /// Inserts the proposal as version `base + 1` and installs it here; refuses while the
    /// database cannot answer, so no instance moves alone.
    func applyDatabase(_ text: String, base: Int, who: String, note: String, database: DatabaseConfigVersions) -> Outcome {
        let proposed = DatabaseConfigVersions.Version(version: base + 1, time: Date(), who: who, note: note, text: text, instance: instance)
        let inserted: Bool
        do {
            inserted = try database.insert(Document.names.kind, proposed)
            status.reached()
        } catch {
            status.failed(error)
            logger.error("not applied: the database cannot be reached", metadata: ["kind": "\(Document.names.kind)", "error": "\(error)"])
            return .failed(refusal(error))
        }
        guard inserted else {
            try? catchUpLocked(database)
            return .conflict(current: current)
        }
        let entry = Self.entry(proposed)
        if let failure = install(entry) { return .failed(failure) }
        record(entry)
        if let kept = status.snapshot.kept, let data = FileManager.default.contents(atPath: kept),
           document.same(String(decoding: data, as: UTF8.self), text) {
            status.conflictResolved()
        }
        return .applied(entry)
    }

    /// What the operator reads when the database refused an apply: what happened and what to do,
    /// in plain words. The database's own text (libpq's, about sockets and servers) goes to the
    /// server log only.
    func refusal(_ error: any Error) -> String {
        let kept = "so your change was not applied and nothing was lost: every instance keeps serving "
            + "version \(current.version) of \(Document.names.title)."
        switch (error as? PostgresError)?.kind {
        case .refused:
            return "The database refused this instance's login, \(kept) Try again once its login settings are fixed; "
                + "the server log says what it refused."
        case .statement:
            return "The database refused the change, \(kept) Try again once whoever runs the database has seen to it; "
                + "the server log says why."
        case .unavailable, nil:
            return "The database did not answer, \(kept) Try again when the database answers."
        }
    }

    /// Installs every version newer than the one here; at the first contact seeds an empty
    /// database from this file, and sets aside a file edited by hand after the database's newest.
    func catchUp() throws {
        guard let database else { return }
        try serial.withLock { _ in
            do {
                try firstContactLocked(database)
                try catchUpLocked(database)
                shareHandEditLocked(database)
                try database.serving(instance, Document.names.kind, version: current.version)
                status.reached()
            } catch {
                status.failed(error)
                throw error
            }
        }
    }

    private func firstContactLocked(_ database: DatabaseConfigVersions) throws {
        guard !contacted.load(ordering: .relaxed) else { return }
        let inForce = document.inForce()
        guard let latest = try database.latest(Document.names.kind) else {
            guard let inForce else {
                throw AtomicFile.Failure(description: "\(document.path) holds an edit the server refuses; the database is seeded once it is fixed")
            }
            let seed = DatabaseConfigVersions.Version(version: 1, time: Date(), who: "file", note: "seeded from \(instance)'s file",
                                                      text: inForce, instance: instance)
            if try database.insert(Document.names.kind, seed) { try history.record(Self.entry(seed)) }
            seenLoad.store(document.loadedVersion, ordering: .relaxed)
            contacted.store(true, ordering: .relaxed)
            return
        }
        if let inForce, !(history.latestEntry.map { document.same($0.text, inForce) } ?? false), !document.same(latest.text, inForce),
           let modified = Self.modified(document.path), modified > latest.time {
            // Edited here after the database's newest version: kept aside, not pushed to every instance.
            let aside = document.path + ".local-\(Int(modified.timeIntervalSince1970))"
            try? AtomicFile.write(Array(inForce.utf8), to: aside)
            logger.warning("the file differs from the database's newest version", metadata: ["kind": "\(Document.names.kind)", "kept": "\(aside)"])
            status.conflict("The file \(document.path) was edited on this instance after the database's version \(latest.version) of "
                            + "\(Document.names.title); this instance serves the database's versions, and the edit is kept in \(aside). "
                            + "Apply it from \(Document.names.page) to share it.", kept: aside)
        }
        // The database's version is the one served, whatever this file held.
        if !(inForce.map { document.same(latest.text, $0) } ?? false) {
            keepRejectedFile()
            if let failure = install(Self.entry(latest)) { throw AtomicFile.Failure(description: failure) }
        }
        seenLoad.store(document.loadedVersion, ordering: .relaxed)
        contacted.store(true, ordering: .relaxed)
    }

    func catchUpLocked(_ database: DatabaseConfigVersions) throws {
        let newer = try database.versions(Document.names.kind, after: history.latest?.version ?? 0)
        guard let last = newer.last else { return }
        for version in newer.dropLast() { try history.record(Self.entry(version)) }
        if let failure = install(Self.entry(last)) { throw AtomicFile.Failure(description: failure) }
    }

    /// The file edited by hand while the server runs (the server loaded it): the next version for
    /// every instance.
    private func shareHandEditLocked(_ database: DatabaseConfigVersions) {
        let loaded = document.loadedVersion
        guard seenLoad.load(ordering: .relaxed) != loaded, let latest = history.latestEntry else { return }
        guard let text = document.inForce(), !document.same(latest.text, text) else {
            seenLoad.store(loaded, ordering: .relaxed)
            return
        }
        // Marked seen once shared (or replaced by a newer version), so a failed insert is tried again.
        switch applyDatabase(text, base: latest.version, who: "file", note: "edited in the file on \(instance)", database: database) {
        case .applied(let entry):
            seenLoad.store(loaded, ordering: .relaxed)
            logger.info("a hand edit shared as a version", metadata: ["kind": "\(Document.names.kind)", "version": "\(entry.version)"])
        case .conflict, .invalid, .unchanged:
            seenLoad.store(loaded, ordering: .relaxed)
        case .failed:
            break
        }
    }

    /// Writes the version to the file, loads it and records it here; a message when it could not.
    /// A file that already holds the same document is left as it is (an operator's own layout of it).
    func install(_ entry: ConfigHistory.Entry) -> String? {
        if !(document.inForce().map { document.same(entry.text, $0) } ?? false), let failure = write(entry.text, version: entry.version) {
            return failure
        }
        do {
            try history.record(entry)
        } catch {
            logger.error("version installed but not recorded here", metadata: ["kind": "\(Document.names.kind)", "error": "\(error)"])
        }
        return nil
    }

    static func entry(_ version: DatabaseConfigVersions.Version) -> ConfigHistory.Entry {
        ConfigHistory.Entry(version: version.version, time: version.time, who: version.who, note: version.note, text: version.text)
    }

    static func modified(_ path: String) -> Date? {
        guard let stamp = FileStamp(path: path) else { return nil }
        return Date(timeIntervalSince1970: Double(stamp.modified.tv_sec) + Double(stamp.modified.tv_nsec) / 1e9)
    }
}

import Basics
import FeatureToggles
import Foundation
import ReportDatabase

/// With a report database the versions live there, numbered there: an apply inserts the next
/// number (taken already: a conflict), every instance installs new versions as the follower
/// learns of them, and the local history and file keep the last one for a restart during an
/// outage. Called with `serial` held.
extension ToggleVersions {
    static let kind = "toggles"

    /// Inserts the proposal as version `base + 1` and installs it here; refuses while the
    /// database cannot answer, so no instance moves alone.
    func applyShared(_ toggles: Toggles, base: Int, who: String, note: String, shared: SharedConfigVersions) -> Outcome {
        let proposed = SharedConfigVersions.Version(version: base + 1, time: Date(), who: who, note: note,
                                                    text: toggles.jsonText, instance: instance)
        let inserted: Bool
        do {
            inserted = try shared.insert(Self.kind, proposed)
            status.reached()
        } catch {
            status.failed(error)
            logger.error("toggles not applied: the database cannot be reached", metadata: ["error": "\(error)"])
            return .failed("The database cannot be reached, so nothing was applied: every instance keeps serving "
                           + "version \(current.version). Try again when it answers. (\(error))")
        }
        guard inserted else {
            try? catchUpLocked(shared)
            return .conflict(current: current)
        }
        let entry = Self.entry(proposed)
        if let failure = install(entry) { return .failed(failure) }
        record(entry)
        return .applied(entry)
    }

    /// Installs every version newer than the one here; at the first contact seeds an empty
    /// database from this file, and sets aside a file edited by hand after the database's newest.
    func catchUp() throws {
        guard let shared else { return }
        try serial.withLock { _ in
            do {
                try firstContactLocked(shared)
                try catchUpLocked(shared)
                shareHandEditLocked(shared)
                try shared.serving(instance, Self.kind, version: current.version)
                status.reached()
            } catch {
                status.failed(error)
                throw error
            }
        }
    }

    private func firstContactLocked(_ shared: SharedConfigVersions) throws {
        guard !contacted.load(ordering: .relaxed) else { return }
        let inForce = router.toggles
        guard let latest = try shared.latest(Self.kind) else {
            let seed = SharedConfigVersions.Version(version: 1, time: Date(), who: "file", note: "seeded from \(instance)'s file",
                                                    text: inForce.jsonText, instance: instance)
            if try shared.insert(Self.kind, seed) { try history.record(Self.entry(seed)) }
            contacted.store(true, ordering: .relaxed)
            return
        }
        let recorded = history.latestEntry.flatMap { try? Toggles(json: Data($0.text.utf8), file: "history", layouts: nil) }
        let databases = try? Toggles(json: Data(latest.text.utf8), file: "database", layouts: nil)
        if inForce != recorded, inForce != databases, let modified = Self.modified(router.path), modified > latest.time {
            // Edited here after the database's newest version: kept aside, not pushed to every instance.
            let aside = router.path + ".local-\(Int(modified.timeIntervalSince1970))"
            try? AtomicFile.write(Array(inForce.jsonText.utf8), to: aside)
            let message = "The toggles file was edited on this instance after the database's version \(latest.version); "
                + "this instance serves the database's version, and the edit is kept in \(aside). Apply it from /admin to share it."
            logger.warning("toggles file differs from the database's newest version", metadata: ["kept": "\(aside)"])
            status.conflict(message)
        }
        // The database's version is the one served, whatever this file held.
        if inForce != databases, let failure = install(Self.entry(latest)) { throw AtomicFile.Failure(description: failure) }
        contacted.store(true, ordering: .relaxed)
    }

    /// The file edited by hand while the server runs (the watcher loaded it): the next version for every instance.
    private func shareHandEditLocked(_ shared: SharedConfigVersions) {
        let inForce = router.toggles
        guard let latest = history.latestEntry,
              (try? Toggles(json: Data(latest.text.utf8), file: "history", layouts: nil)) != inForce else { return }
        if case .applied(let entry) = applyShared(inForce, base: latest.version, who: "file", note: "edited in the file on \(instance)",
                                                   shared: shared) {
            logger.info("a hand edit of the toggles file shared as a version", metadata: ["version": "\(entry.version)"])
        }
    }

    func catchUpLocked(_ shared: SharedConfigVersions) throws {
        let newer = try shared.versions(Self.kind, after: history.latest?.version ?? 0)
        guard let last = newer.last else { return }
        for version in newer.dropLast() { try history.record(Self.entry(version)) }
        if let failure = install(Self.entry(last)) { throw AtomicFile.Failure(description: failure) }
    }

    /// Writes the version to the file, loads it and records it here; a message when it could not.
    /// A file that already holds equal toggles is left as it is (an operator's own layout of it).
    func install(_ entry: ConfigHistory.Entry) -> String? {
        if (try? Toggles(json: Data(entry.text.utf8), file: "version", layouts: nil)) != router.toggles {
            do {
                try AtomicFile.write(Array(entry.text.utf8), to: router.path)
            } catch {
                logger.error("toggles version not installed", metadata: ["version": "\(entry.version)", "error": "\(error)"])
                return "The toggles file could not be written (\(error)); the toggles in force stay."
            }
            if case .rejected(let error) = router.reload() {
                return "Version \(entry.version) was written but not loaded here: \(error)"
            }
        }
        do {
            try history.record(entry)
        } catch {
            logger.error("toggles version installed but not recorded here", metadata: ["error": "\(error)"])
        }
        return nil
    }

    static func entry(_ version: SharedConfigVersions.Version) -> ConfigHistory.Entry {
        ConfigHistory.Entry(version: version.version, time: version.time, who: version.who, note: version.note, text: version.text)
    }

    static func modified(_ path: String) -> Date? {
        guard let stamp = FileStamp(path: path) else { return nil }
        return Date(timeIntervalSince1970: Double(stamp.modified.tv_sec) + Double(stamp.modified.tv_nsec) / 1e9)
    }
}

import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ReportDatabase
import Reporting
import Synchronization

/// The versions of one configuration file (the toggles or the catalogue, `Document`): the file
/// stays the source the server reads, and every change to it, from the admin pages or by hand,
/// becomes a version in the history beside the report log, with an event in the report log.
///
/// An apply names the version its form was drawn from; one made over a newer version is a
/// conflict, never an overwrite. Applies, rollbacks and the hand-edit check run one at a time,
/// so the file, the history and the document in force move together. With a database the
/// versions are numbered there (`ConfigVersions+Database`).
final class ConfigVersions<Document: VersionedDocument>: Sendable {
    /// What an apply came to.
    enum Outcome: Sendable {
        /// Written and in force.
        case applied(ConfigHistory.Entry)
        /// The form was drawn from an older version; `current` is in force now.
        case conflict(current: ConfigHistory.Entry)
        /// A rule of the loader fails; nothing changed.
        case invalid(Document.Invalid)
        /// The proposal equals the version in force.
        case unchanged
        /// The file, the history or the database could not be written; the version in force stays.
        case failed(String)
    }

    let document: Document
    let history: ConfigHistory
    private let log: ReportLog
    let logger: Logger
    let serial = Mutex<Void>(())
    /// The document's load last compared with the history: a cheap test for "reloaded since".
    let seenLoad = Atomic<Int>(0)
    /// The report database's versions; nil: this machine's file alone.
    let database: DatabaseConfigVersions?
    /// This instance's name in the database.
    let instance: String
    let status = ConfigSyncStatus()
    /// Whether the database has been reached since start (and an empty one seeded).
    let contacted = Atomic<Bool>(false)
    /// The file could not be loaded at start and was restored from the history: what the admin
    /// pages say about it.
    let restored: String?

    /// Loads the history in `folder`. Alone, records the file in force if it differs from the
    /// newest version (the first start, or an edit while the server was down); with a database,
    /// the follower compares it with the database's once it answers.
    init(_ document: Document, folder: String, log: ReportLog, logger: Logger, database: DatabaseConfigVersions? = nil,
         instance: String = "", restored: String? = nil) throws(AtomicFile.Failure) {
        self.document = document
        self.restored = restored
        history = try ConfigHistory(folder: folder, logger: logger)
        self.log = log
        self.logger = logger
        self.database = database
        self.instance = instance
        seenLoad.store(document.loadedVersion, ordering: .relaxed)
        guard database == nil else { return }
        try serial.withLock { _ throws(AtomicFile.Failure) in
            try recordFileIfChanged(note: history.latest == nil ? "the file at the first start" : "edited in the file")
        }
    }

    /// The version in force.
    var current: ConfigHistory.Entry {
        // Nil only before the database first answered.
        history.latestEntry ?? ConfigHistory.Entry(version: 0, time: Date(), who: "file", note: "", text: document.inForce() ?? "")
    }

    /// From the watcher, every second: when the server loaded the file again, a hand edit becomes
    /// a version "file" (with a database, the follower shares it).
    func checkFile() {
        guard database == nil else { return }
        let loaded = document.loadedVersion
        guard seenLoad.exchange(loaded, ordering: .relaxed) != loaded else { return }
        serial.withLock { _ in
            do {
                try recordFileIfChanged(note: "edited in the file")
            } catch {
                logger.error("a hand edit could not be recorded", metadata: ["kind": "\(Document.names.kind)", "error": "\(error)"])
            }
        }
    }

    /// Validates `text` as the loader would and, unless `base` is no longer the version in force,
    /// writes it to the file and makes it the next version.
    func apply(_ text: String, base: Int, who: String, note: String) -> Outcome {
        serial.withLock { _ in
            // An edit of the file not yet noticed is a version too: this form was not drawn from it.
            document.loadIfChanged()
            if database == nil { try? recordFileIfChanged(note: "edited in the file") }
            let current = self.current
            guard base == current.version else { return .conflict(current: current) }
            let recorded: String
            do throws(Document.Invalid) {
                recorded = try document.validate(text)
            } catch {
                return .invalid(error)
            }
            guard !document.same(recorded, current.text) else { return .unchanged }
            return applyLocked(recorded, base: base, who: who, note: note)
        }
    }

    /// A new version equal to `version`, under the same conflict rule as an apply; nil when there
    /// is no such version.
    func rollback(to version: Int, base: Int, who: String, note: String) -> Outcome? {
        guard let old = history.entry(version) else { return nil }
        return apply(old.text, base: base, who: who, note: note)
    }

    /// Makes `text`, checked already, the next version after `base`; called with `serial` held.
    func applyLocked(_ text: String, base: Int, who: String, note: String) -> Outcome {
        keepRejectedFile()
        if let database { return applyDatabase(text, base: base, who: who, note: note, database: database) }
        if let failure = write(text, version: base + 1) { return .failed(failure) }
        do {
            let entry = try history.append(who: who, note: note, text: text)
            record(entry)
            return .applied(entry)
        } catch {
            // The file is in force; the next check of the file records it as a hand edit.
            logger.error("applied but not recorded in the history", metadata: ["kind": "\(Document.names.kind)", "error": "\(error)"])
            return .failed("Applied, but \(Document.names.title) could not be recorded in the history (\(error)).")
        }
    }

    /// Writes the file atomically (a temporary file, fsync, rename) and loads it; a message when
    /// either fails.
    func write(_ text: String, version: Int) -> String? {
        do {
            try AtomicFile.write(Array(text.utf8), to: document.path)
        } catch {
            logger.error("version not written", metadata: ["kind": "\(Document.names.kind)", "version": "\(version)", "error": "\(error)"])
            return "The file \(document.path) could not be written (\(error)); nothing changed: the version in force stays."
        }
        // Checked before, so only a change on disk since (an image removed) is refused here.
        if let problem = document.reload() { return "Version \(version) was written but not loaded: \(problem)" }
        seenLoad.store(document.loadedVersion, ordering: .relaxed)
        // Applied here or learnt from the database: every instance's log says when each version came in force.
        logger.info("version in force", metadata: ["kind": "\(Document.names.kind)", "version": "\(version)"])
        return nil
    }

    /// A file the loader refused (a hand edit with a mistake) is about to be replaced: its text is
    /// kept beside it, `<file>.rejected-<time>`, so nothing typed is lost.
    func keepRejectedFile() {
        guard let data = FileManager.default.contents(atPath: document.path), !document.accepts(Array(data)) else { return }
        let aside = document.path + ".rejected-\(Int(Date().timeIntervalSince1970))"
        do {
            try AtomicFile.write(Array(data), to: aside)
            logger.notice("the file held a refused edit; kept beside it before replacing it", metadata: ["kept": "\(aside)"])
        } catch {
            logger.error("a refused edit of the file could not be kept", metadata: ["file": "\(document.path)", "error": "\(error)"])
        }
    }

    /// Records the document in force as a version "file" when it differs from the newest one.
    private func recordFileIfChanged(note: String) throws(AtomicFile.Failure) {
        guard let text = document.inForce() else { return }
        if let latest = history.latestEntry, document.same(latest.text, text) { return }
        let entry = try history.append(who: "file", note: note, text: text)
        logger.info("file recorded as a version", metadata: ["kind": "\(Document.names.kind)", "version": "\(entry.version)"])
        if entry.version > 1 { record(entry) }
    }

    func record(_ entry: ConfigHistory.Entry) {
        // The note too: the report charts mark the change with it.
        var properties = ["version": String(entry.version), "who": entry.who]
        if !entry.note.isEmpty { properties["note"] = entry.note }
        log.record(ReportEvent(Document.names.event, timestamp: entry.time, properties: properties))
    }
}

typealias ToggleVersions = ConfigVersions<TogglesDocument>
typealias ContentVersions = ConfigVersions<CatalogueDocument>

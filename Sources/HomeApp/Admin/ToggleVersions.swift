import Basics
import FeatureToggles
import Foundation
import Logging
import ReportDatabase
import Reporting
import Synchronization

/// The toggles' versions on one machine: the file stays the source the server reads
/// (`ToggleRouter`), and every change to it, from the admin pages or by hand, becomes a version
/// in the history beside the report log, with an event in the report log.
///
/// An apply names the version its form was drawn from; one made over a newer version is a
/// conflict, never an overwrite. Applies, rollbacks and the watcher's hand-edit check run one at
/// a time, so the file, the history and the toggles in force move together.
final class ToggleVersions: Sendable {
    /// What an apply came to.
    enum Outcome: Sendable {
        /// Written and in force.
        case applied(ConfigHistory.Entry)
        /// The form was drawn from `base`, but `current` is in force now.
        case conflict(current: ConfigHistory.Entry)
        /// A rule of the loader fails; nothing changed.
        case invalid(TogglesError)
        /// The proposal equals the toggles in force.
        case unchanged
        /// The file or the history could not be written; the toggles in force stay.
        case failed(String)
    }

    static let changedEvent: ReportEvent.Name = "toggles_changed"
    let router: ToggleRouter
    let history: ConfigHistory
    private let log: ReportLog
    let logger: Logger
    let serial = Mutex<Void>(())
    /// The report database's versions (`ToggleVersions+Shared`); nil: this machine's file alone.
    let shared: SharedConfigVersions?
    /// This instance's name in the database.
    let instance: String
    let status = ConfigSyncStatus()
    /// Whether the database has been reached since start (and an empty one seeded).
    let contacted = Atomic<Bool>(false)

    /// Loads the history in `folder`. Alone, records the file in force if it differs from the
    /// newest version (the first start, or an edit while the server was down); with a database,
    /// the follower compares it with the database's once it answers.
    init(router: ToggleRouter, folder: String, log: ReportLog, logger: Logger, shared: SharedConfigVersions? = nil,
         instance: String = "") throws(AtomicFile.Failure) {
        self.router = router
        history = try ConfigHistory(folder: folder, logger: logger)
        self.log = log
        self.logger = logger
        self.shared = shared
        self.instance = instance
        guard shared == nil else { return }
        try serial.withLock { _ throws(AtomicFile.Failure) in
            try recordFileIfChanged(note: history.latest == nil ? "the file at the first start" : "edited in the file")
        }
    }

    /// The version in force.
    var current: ConfigHistory.Entry {
        // Never nil once init has recorded the file.
        history.latestEntry ?? ConfigHistory.Entry(version: 0, time: Date(), who: "file", note: "", text: router.toggles.jsonText)
    }

    /// After the watcher reloaded the file: a hand edit becomes a version "file" (with a
    /// database, the follower shares it within a second).
    func fileReloaded() {
        guard shared == nil else { return }
        serial.withLock { _ in
            do {
                try recordFileIfChanged(note: "edited in the file")
            } catch {
                logger.error("a hand edit of the toggles could not be recorded", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Validates `json` as the file loader would and, unless `base` is no longer the version in
    /// force, writes it to the toggles file and makes it the next version.
    func apply(_ json: String, base: Int, who: String, note: String) -> Outcome {
        serial.withLock { _ in
            // An edit of the file not yet noticed is a version too: this form was not drawn from it.
            router.reloadIfChanged()
            if shared == nil { try? recordFileIfChanged(note: "edited in the file") }
            let current = self.current
            guard base == current.version else { return .conflict(current: current) }
            let toggles: Toggles
            do throws(TogglesError) {
                toggles = try Toggles(json: Data(json.utf8), file: "toggles", layouts: router.layouts)
            } catch {
                return .invalid(error)
            }
            guard toggles != router.toggles else { return .unchanged }
            return applyLocked(toggles, base: base, who: who, note: note)
        }
    }

    /// Takes every ramp step that is due (from the watcher, once a second): a new version by
    /// "ramp". With a database one instance wins each step; the others install it.
    func stepRamps(now: Date = Date()) {
        guard let next = router.toggles.nextRampStep, next.step.at <= now, shared == nil || contacted.load(ordering: .relaxed) else { return }
        serial.withLock { _ in
            guard let (toggles, steps) = router.toggles.steppingRamps(at: now) else { return }
            let note = "ramp step: " + steps.map { "\($0.layout) to \(JSONValue.number($0.share * 100))%" }.joined(separator: ", ")
            if case .applied(let entry) = applyLocked(toggles, base: current.version, who: "ramp", note: note) {
                logger.info("ramp step applied", metadata: ["version": "\(entry.version)", "note": "\(note)"])
            }
        }
    }

    /// Makes `toggles` the next version after `base`; called with `serial` held.
    private func applyLocked(_ toggles: Toggles, base: Int, who: String, note: String) -> Outcome {
        keepRejectedFile()
        if let shared { return applyShared(toggles, base: base, who: who, note: note, shared: shared) }
        let text = toggles.jsonText
        do {
            try AtomicFile.write(Array(text.utf8), to: router.path)
        } catch {
            logger.error("toggles not applied", metadata: ["error": "\(error)"])
            return .failed("The toggles file could not be written (\(error)); the toggles in force stay.")
        }
        router.reload()
        do {
            let entry = try history.append(who: who, note: note, text: text)
            record(entry)
            return .applied(entry)
        } catch {
            // The file is in force; the next check of the file records it as a hand edit.
            logger.error("toggles applied but not recorded in the history", metadata: ["error": "\(error)"])
            return .failed("The toggles were applied but could not be recorded in the history (\(error)).")
        }
    }

    /// Why the loader refuses the file as it is now (a hand edit with a mistake), nil when it takes it.
    var fileProblem: TogglesError? {
        do {
            _ = try Toggles(json: try Data(contentsOf: URL(fileURLWithPath: router.path)), file: router.path, layouts: router.layouts)
            return nil
        } catch let error as TogglesError {
            return error
        } catch {
            return TogglesError(file: router.path, field: nil, reason: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// A file the loader refused (a hand edit with a mistake) is about to be replaced: its text is
    /// kept beside it, `toggles.json.rejected-<time>`, so nothing typed is lost.
    func keepRejectedFile() {
        guard let data = FileManager.default.contents(atPath: router.path),
              (try? Toggles(json: data, file: "file", layouts: router.layouts)) == nil else { return }
        let aside = router.path + ".rejected-\(Int(Date().timeIntervalSince1970))"
        do {
            try AtomicFile.write(Array(data), to: aside)
            logger.notice("the toggles file held a refused edit; kept beside it before replacing it", metadata: ["kept": "\(aside)"])
        } catch {
            logger.error("a refused edit of the toggles file could not be kept", metadata: ["error": "\(error)"])
        }
    }

    /// A new version equal to `version`, under the same conflict rule as an apply.
    func rollback(to version: Int, base: Int, who: String, note: String) -> Outcome? {
        guard let old = history.entry(version) else { return nil }
        return apply(old.text, base: base, who: who, note: note)
    }

    /// Records the toggles in force as a version "file" when they differ from the newest one.
    private func recordFileIfChanged(note: String) throws(AtomicFile.Failure) {
        let inForce = router.toggles
        if let latest = history.latestEntry,
           let recorded = try? Toggles(json: Data(latest.text.utf8), file: "history", layouts: nil),
           recorded == inForce { return }
        // In the written form, so versions compare field by field whoever made them.
        let entry = try history.append(who: "file", note: note, text: inForce.jsonText)
        logger.info("toggles file recorded as a version", metadata: ["version": "\(entry.version)"])
        if entry.version > 1 { record(entry) }
    }

    func record(_ entry: ConfigHistory.Entry) {
        // The note too: the report charts mark the change with it.
        var properties = ["version": String(entry.version), "who": entry.who]
        if !entry.note.isEmpty { properties["note"] = entry.note }
        log.record(ReportEvent(Self.changedEvent, timestamp: entry.time, properties: properties))
    }
}

import Basics
import Foundation
import Logging
import ReportDatabase
import Reporting
import Synchronization

/// The catalogue's versions on one machine, as `ToggleVersions` keeps the toggles': the content
/// file stays the source (`ContentStore` reloads it), an upload writes it atomically and is the
/// next version, hand edits become versions "file", each change is a `content_changed` event.
final class ContentVersions: Sendable {
    enum Outcome: Sendable {
        case applied(ConfigHistory.Entry)
        case conflict(current: ConfigHistory.Entry)
        case invalid(ContentCatalogError)
        case unchanged
        case failed(String)
    }

    static let changedEvent: ReportEvent.Name = "content_changed"
    let store: ContentStore
    let history: ConfigHistory
    private let log: ReportLog
    let logger: Logger
    let serial = Mutex<Void>(())
    /// The store's version last compared with the history: a cheap test for "reloaded since".
    let seenStoreVersion = Atomic<Int>(0)
    /// The report database's versions (`ContentVersions+Shared`); nil: this machine's file alone.
    let shared: SharedConfigVersions?
    let instance: String
    let status = ConfigSyncStatus()
    let contacted = Atomic<Bool>(false)

    init(store: ContentStore, folder: String, log: ReportLog, logger: Logger, shared: SharedConfigVersions? = nil,
         instance: String = "") throws(AtomicFile.Failure) {
        self.store = store
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

    var current: ConfigHistory.Entry {
        history.latestEntry ?? ConfigHistory.Entry(version: 0, time: Date(), who: "file", note: "", text: "")
    }

    /// From the watcher, every second: when the store reloaded the file, a hand edit becomes a version.
    func checkFile() {
        guard shared == nil else { return }  // the follower shares hand edits
        let version = store.version
        guard seenStoreVersion.exchange(version, ordering: .relaxed) != version else { return }
        serial.withLock { _ in
            do {
                try recordFileIfChanged(note: "edited in the file")
            } catch {
                logger.error("a hand edit of the catalogue could not be recorded", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Validates `text` as the loader does at start and, unless `base` is no longer in force,
    /// writes it to the content file and makes it the next version.
    func apply(_ text: String, base: Int, who: String, note: String) -> Outcome {
        serial.withLock { _ in
            // A hand edit not yet noticed is a version too: this upload was not drawn from it.
            if shared == nil { try? recordFileIfChanged(note: "edited in the file") }
            let current = self.current
            guard base == current.version else { return .conflict(current: current) }
            do throws(ContentCatalogError) {
                _ = try Self.validate(text, store: store)
            } catch {
                return .invalid(error)
            }
            guard text != current.text else { return .unchanged }
            keepRejectedFile()
            if let shared { return applyShared(text, base: base, who: who, note: note, shared: shared) }
            do {
                try AtomicFile.write(Array(text.utf8), to: store.fileURL.path)
            } catch {
                logger.error("catalogue not applied", metadata: ["error": "\(error)"])
                return .failed("The content file could not be written (\(error)); the catalogue in force stays.")
            }
            if case .failure(let error) = store.reload() {
                // Checked above, so only a change on disk since (an image removed) lands here.
                return .failed("The content file was written but not loaded: \(error)")
            }
            seenStoreVersion.store(store.version, ordering: .relaxed)
            do {
                let entry = try history.append(who: who, note: note, text: text)
                record(entry)
                return .applied(entry)
            } catch {
                logger.error("catalogue applied but not recorded in the history", metadata: ["error": "\(error)"])
                return .failed("The catalogue was applied but could not be recorded in the history (\(error)).")
            }
        }
    }

    /// A file the loader refused is about to be replaced: its text is kept beside it, as the toggles' is.
    private func keepRejectedFile() {
        guard let data = FileManager.default.contents(atPath: store.fileURL.path),
              (try? ContentCatalog.decode(data, file: "file", publicDirectory: store.publicDirectory)) == nil else { return }
        let aside = store.fileURL.path + ".rejected-\(Int(Date().timeIntervalSince1970))"
        do {
            try AtomicFile.write(Array(data), to: aside)
            logger.notice("the content file held a refused edit; kept beside it before replacing it", metadata: ["kept": "\(aside)"])
        } catch {
            logger.error("a refused edit of the content file could not be kept", metadata: ["error": "\(error)"])
        }
    }

    func rollback(to version: Int, base: Int, who: String, note: String) -> Outcome? {
        guard let old = history.entry(version) else { return nil }
        return apply(old.text, base: base, who: who, note: note)
    }

    /// The catalogue `text` stands for, checked as at start (images included).
    static func validate(_ text: String, store: ContentStore) throws(ContentCatalogError) -> ContentCatalog {
        let data = Data(text.utf8)
        guard data.count <= ContentCatalog.maximumFileBytes else {
            throw ContentCatalogError(file: "upload", problem: "is larger than the \(ContentCatalog.maximumFileBytes / (1024 * 1024)) MiB a content file may have")
        }
        return try ContentCatalog.decode(data, file: "upload", publicDirectory: store.publicDirectory)
    }

    /// Records the file as a version "file" when it is valid, in force and not the newest version.
    /// A valid file the store has not loaded yet (its poll is a second away) is loaded first.
    private func recordFileIfChanged(note: String) throws(AtomicFile.Failure) {
        guard let data = FileManager.default.contents(atPath: store.fileURL.path), let text = String(data: data, encoding: .utf8),
              text != history.latestEntry?.text,
              let catalog = try? ContentCatalog.decode(data, file: "file", publicDirectory: store.publicDirectory) else { return }
        if catalog != store.catalog { store.reload() }
        guard catalog == store.catalog else { return }
        let entry = try history.append(who: "file", note: note, text: text)
        logger.info("content file recorded as a version", metadata: ["version": "\(entry.version)"])
        if entry.version > 1 { record(entry) }
    }

    func record(_ entry: ConfigHistory.Entry) {
        // The note too: the report charts mark the change with it.
        var properties = ["version": String(entry.version), "who": entry.who]
        if !entry.note.isEmpty { properties["note"] = entry.note }
        log.record(ReportEvent(Self.changedEvent, timestamp: entry.time, properties: properties))
    }
}

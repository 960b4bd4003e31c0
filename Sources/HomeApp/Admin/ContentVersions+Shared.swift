import Basics
import Foundation
import ReportDatabase

/// The catalogue's versions in the report database, as `ToggleVersions+Shared` keeps the
/// toggles': numbered there, installed by every instance through its own file, refused while the
/// database cannot answer. Called with `serial` held.
extension ContentVersions {
    static let kind = "content"

    func applyShared(_ text: String, base: Int, who: String, note: String, shared: SharedConfigVersions) -> Outcome {
        let proposed = SharedConfigVersions.Version(version: base + 1, time: Date(), who: who, note: note, text: text, instance: instance)
        let inserted: Bool
        do {
            inserted = try shared.insert(Self.kind, proposed)
            status.reached()
        } catch {
            status.failed(error)
            logger.error("catalogue not applied: the database cannot be reached", metadata: ["error": "\(error)"])
            return .failed("The database cannot be reached, so nothing was applied: every instance keeps serving "
                           + "version \(current.version) of the catalogue. Try again when it answers. (\(error))")
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
        let text = fileText ?? ""
        guard let latest = try shared.latest(Self.kind) else {
            let seed = SharedConfigVersions.Version(version: 1, time: Date(), who: "file", note: "seeded from \(instance)'s file",
                                                    text: text, instance: instance)
            if try shared.insert(Self.kind, seed) { try history.record(Self.entry(seed)) }
            seenStoreVersion.store(store.version, ordering: .relaxed)
            contacted.store(true, ordering: .relaxed)
            return
        }
        if text != history.latestEntry?.text, text != latest.text,
           let modified = ToggleVersions.modified(store.fileURL.path), modified > latest.time {
            let aside = store.fileURL.path + ".local-\(Int(modified.timeIntervalSince1970))"
            try? AtomicFile.write(Array(text.utf8), to: aside)
            logger.warning("content file differs from the database's newest version", metadata: ["kept": "\(aside)"])
            status.conflict("The content file was edited on this instance after the database's version \(latest.version); "
                            + "this instance serves the database's version, and the edit is kept in \(aside). Upload it from /admin/content to share it.")
        }
        if text != latest.text, let failure = install(Self.entry(latest)) { throw AtomicFile.Failure(description: failure) }
        seenStoreVersion.store(store.version, ordering: .relaxed)
        contacted.store(true, ordering: .relaxed)
    }

    func catchUpLocked(_ shared: SharedConfigVersions) throws {
        let newer = try shared.versions(Self.kind, after: history.latest?.version ?? 0)
        guard let last = newer.last else { return }
        for version in newer.dropLast() { try history.record(Self.entry(version)) }
        if let failure = install(Self.entry(last)) { throw AtomicFile.Failure(description: failure) }
    }

    /// The file edited by hand while the server runs (the store reloaded it): the next version for every instance.
    private func shareHandEditLocked(_ shared: SharedConfigVersions) {
        let version = store.version
        guard seenStoreVersion.exchange(version, ordering: .relaxed) != version, let latest = history.latestEntry,
              let text = fileText, text != latest.text,
              (try? ContentCatalog.decode(Data(text.utf8), file: "file", publicDirectory: store.publicDirectory)) == store.catalog
        else { return }
        _ = applyShared(text, base: latest.version, who: "file", note: "edited in the file on \(instance)", shared: shared)
    }

    /// Writes the version to the file, loads it and records it here; a message when it could not.
    func install(_ entry: ConfigHistory.Entry) -> String? {
        if entry.text != fileText {
            do {
                try AtomicFile.write(Array(entry.text.utf8), to: store.fileURL.path)
            } catch {
                return "The content file could not be written (\(error)); the catalogue in force stays."
            }
            if case .failure(let error) = store.reload() { return "Version \(entry.version) was written but not loaded here: \(error)" }
            seenStoreVersion.store(store.version, ordering: .relaxed)
        }
        do {
            try history.record(entry)
        } catch {
            logger.error("catalogue version installed but not recorded here", metadata: ["error": "\(error)"])
        }
        return nil
    }

    private var fileText: String? {
        FileManager.default.contents(atPath: store.fileURL.path).flatMap { String(data: $0, encoding: .utf8) }
    }

    static func entry(_ version: SharedConfigVersions.Version) -> ConfigHistory.Entry {
        ConfigHistory.Entry(version: version.version, time: version.time, who: version.who, note: version.note, text: version.text)
    }
}

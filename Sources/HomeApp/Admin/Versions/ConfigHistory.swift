import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging
import Synchronization

/// Every version of one configuration file (the toggles or the catalogue), kept beside the report
/// log: one JSON file a version (`v00000001.json`), written whole (`AtomicFile`), so a crash leaves
/// a version complete or absent. A file that cannot be read back is renamed `….damaged`, logged
/// and counted for `/admin`; the versions around it still load, and the server still starts.
final class ConfigHistory: Sendable {
    /// One version: what was in force from `time`, who made it and why.
    struct Entry: Sendable, Equatable {
        let version: Int
        let time: Date
        /// "loopback", "token", "sign-in" or "file" (an edit of the file itself).
        let who: String
        let note: String
        /// The file's text as written (for a hand edit: as read).
        let text: String
    }

    /// A version without its text, kept in memory for the history page.
    struct Summary: Sendable, Equatable {
        let version: Int
        let time: Date
        let who: String
        let note: String
    }

    let folder: String
    private let entries: Mutex<[Summary]>
    /// The newest version's text: what the next apply is compared with.
    private let latestText: Mutex<String?>
    /// Files set aside (now or at an earlier start) because they could not be read.
    let damaged: [String]
    /// The highest version number any file had, damaged ones included: never given out again.
    private let highestSeen: Int
    private let logger: Logger

    /// Loads the versions in `folder` (created if missing), setting aside those that cannot be read.
    init(folder: String, logger: Logger) throws(AtomicFile.Failure) {
        self.folder = folder
        self.logger = logger
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw AtomicFile.Failure(description: "cannot create \(folder): \(ErrorText.describe(error))")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        var loaded: [Summary] = []
        var damaged: [String] = []
        var newest: Entry?
        var highest = 0
        for name in names {
            if name.contains(".tmp-") {
                unlink(folder + "/" + name)  // a write cut short: the version it was for never existed
                continue
            }
            guard let version = Self.version(inFileName: name.hasSuffix(".damaged") ? String(name.dropLast(8)) : name) else { continue }
            highest = max(highest, version)
            if name.hasSuffix(".damaged") {
                damaged.append(name)  // set aside at an earlier start, still there to look at
                continue
            }
            if let entry = Self.read(folder + "/" + name), entry.version == version {
                loaded.append(Summary(version: entry.version, time: entry.time, who: entry.who, note: entry.note))
                if entry.version > newest?.version ?? 0 { newest = entry }
            } else {
                let aside = name + ".damaged"
                rename(folder + "/" + name, folder + "/" + aside)
                damaged.append(aside)
                logger.error("a configuration version cannot be read; set aside", metadata: ["file": "\(folder)/\(aside)"])
            }
        }
        entries = Mutex(loaded.sorted { $0.version < $1.version })
        latestText = Mutex(newest?.text)
        self.damaged = damaged
        highestSeen = highest
    }

    /// The newest version, if any.
    var latest: Summary? { entries.withLock { $0.last } }

    var latestEntry: Entry? {
        guard let summary = latest, let text = latestText.withLock({ $0 }) else { return nil }
        return Entry(version: summary.version, time: summary.time, who: summary.who, note: summary.note, text: text)
    }

    /// Every version, oldest first.
    var all: [Summary] { entries.withLock { $0 } }

    /// One version, text included, read from its file.
    func entry(_ version: Int) -> Entry? {
        Self.read(folder + "/" + Self.fileName(version))
    }

    /// Records the next version; the caller serialises appends.
    @discardableResult
    func append(who: String, note: String, text: String, time: Date = Date()) throws(AtomicFile.Failure) -> Entry {
        let entry = Entry(version: max(latest?.version ?? 0, highestSeen) + 1, time: time, who: who, note: note, text: text)
        try record(entry)
        return entry
    }

    /// Records a version numbered elsewhere (the report database's), newer than every one here.
    func record(_ entry: Entry) throws(AtomicFile.Failure) {
        guard entry.version > latest?.version ?? 0 else { return }
        try AtomicFile.write(Array((entry.json.text + "\n").utf8), to: folder + "/" + Self.fileName(entry.version))
        entries.withLock { $0.append(Summary(version: entry.version, time: entry.time, who: entry.who, note: entry.note)) }
        latestText.withLock { $0 = entry.text }
    }

    static func fileName(_ version: Int) -> String {
        let digits = String(version)
        return "v" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".json"
    }

    static func version(inFileName name: String) -> Int? {
        guard name.hasPrefix("v"), name.hasSuffix(".json") else { return nil }
        return Int(name.dropFirst().dropLast(5)).flatMap { $0 > 0 ? $0 : nil }
    }

    private static func read(_ path: String) -> Entry? {
        guard let data = FileManager.default.contents(atPath: path), let json = try? JSONValue(reading: data) else { return nil }
        return Entry(json: json)
    }
}

import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging

/// A configuration file the server cannot load at start (damaged, emptied or deleted while it was
/// down) is no reason not to start when its history holds a version: the file is set aside as
/// `<file>.damaged-<time>` and the newest version written in its place, so what was there is kept
/// and the server starts as it last ran. With a database the follower then installs anything newer.
enum FileRestore {
    /// The operator's notice when the file was restored; nil when the history holds no version
    /// (a first start: the server refuses, naming the file).
    static func fromHistory(_ path: String, folder: String, kind: String, problem: String, logger: Logger) -> String? {
        guard FileManager.default.fileExists(atPath: folder),
              let history = try? ConfigHistory(folder: folder, logger: logger), let latest = history.latestEntry else { return nil }
        // The same text would fail the same way (an image gone, say): the file is left as it is.
        if let bytes = FileManager.default.contents(atPath: path), String(decoding: bytes, as: UTF8.self) == latest.text { return nil }
        var kept: String?
        if FileManager.default.fileExists(atPath: path) {
            let aside = path + ".damaged-\(Int(Date().timeIntervalSince1970))"
            guard rename(path, aside) == 0 else { return nil }
            kept = aside
        }
        do {
            try AtomicFile.write(Array(latest.text.utf8), to: path)
        } catch {
            logger.error("a configuration file could not be restored from its history", metadata: ["file": "\(path)", "error": "\(error)"])
            return nil
        }
        logger.error("a configuration file could not be loaded at start; restored from its history", metadata: [
            "kind": "\(kind)", "file": "\(path)", "problem": "\(problem)", "kept": "\(kept ?? "nothing: it was missing")",
            "version": "\(latest.version)"])
        return "At start the file \(path) could not be loaded (\(problem)). "
            + (kept.map { "It is kept as \($0), and" } ?? "It was missing, and")
            + " this instance started from version \(latest.version) of its history, written in its place."
    }
}

import Foundation
import Logging
import TestSupport

/// Paths and small content files shared by the content tests.
enum ContentFixtures {
    /// The repository root: …/Tests/HomeAppTests/ContentFixtures.swift, three levels up.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let publicDirectory = repositoryRoot.appendingPathComponent("Public")
    static let defaultContent = repositoryRoot.appendingPathComponent("Config/content.json")

    static let longItem = #"{"id":"m-001","kind":"long","title":"Salt & Iron","description":"Shipwrights race.","durationMinutes":124,"image":"images/posters/m-001.svg"}"#
    static let shortItem = #"{"id":"s-001","kind":"short","title":"Crêpes, Three Ways","description":"One batter, one pan.","durationSeconds":205,"image":"images/posters/s-001.svg"}"#
    static let liveItem = #"{"id":"l-001","kind":"live","title":"Newsroom Live","description":"Headlines all day.","startsAt":"2026-11-21T19:45:00Z","image":"images/posters/l-001.svg"}"#

    /// A content file with the given item objects.
    static func file(_ items: String...) -> String {
        #"{"version":1,"items":["# + items.joined(separator: ",") + "]}"
    }

    /// A fresh directory under the system temporary directory.
    static func temporaryDirectory() throws -> TemporaryDirectory { try TemporaryDirectory("content-tests") }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}

/// Collects log lines so tests can check what a reload reported.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [(level: Logger.Level, message: String)] = []

    var entries: [(level: Logger.Level, message: String)] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    func append(_ level: Logger.Level, _ message: String) {
        lock.lock()
        defer { lock.unlock() }
        lines.append((level, message))
    }

    var logger: Logger {
        Logger(label: "content-tests") { _ in RecordingLogHandler(recorder: self) }
    }
}

struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.append(event.level, event.message.description)
    }
}

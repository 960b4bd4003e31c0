import Foundation
import Logging
import Testing
import TestSupport
@testable import HomeApp

/// The versions on disk: written and read back through the one JSON reader and writer.
@Suite struct ConfigHistoryTests {
    @Test func aVersionWrittenIsReadBackAtTheNextStart() throws {
        let folder = try TemporaryDirectory("config-history")
        defer { folder.remove() }
        let history = try ConfigHistory(folder: folder.path("history"), logger: Logger(label: "test"))
        let time = Date(timeIntervalSince1970: 1_769_850_000)
        let text = "{\n  \"defaultLayout\": \"grid\", \"note\": \"a/b \\\"c\\\" é\"\n}\n"
        try history.append(who: "loopback", note: "grid / \"quoted\"", text: text, time: time)
        let again = try ConfigHistory(folder: folder.path("history"), logger: Logger(label: "test"))
        #expect(again.latestEntry == ConfigHistory.Entry(version: 1, time: time, who: "loopback", note: "grid / \"quoted\"", text: text))
        #expect(again.damaged.isEmpty)
    }

    @Test func aVersionFileInTheEarlierFormIsStillRead() throws {
        let folder = try TemporaryDirectory("config-history")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("history"), withIntermediateDirectories: true)
        // As Foundation's encoder wrote them: slashes escaped, keys sorted, the time to the second.
        let file = #"{"note":"a\/b","text":"{\"defaultLayout\": \"list\"}\n","time":"2026-01-31T09:00:00Z","version":7,"who":"file"}"#
        try Data((file + "\n").utf8).write(to: URL(fileURLWithPath: folder.path("history/v00000007.json")))
        let history = try ConfigHistory(folder: folder.path("history"), logger: Logger(label: "test"))
        #expect(history.latestEntry == ConfigHistory.Entry(version: 7, time: Date(timeIntervalSince1970: 1_769_850_000), who: "file",
                                                           note: "a/b", text: "{\"defaultLayout\": \"list\"}\n"))
        #expect(history.damaged.isEmpty)
    }
}

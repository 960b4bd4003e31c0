import Basics
import Foundation
import Testing

@Suite struct ReloadingFileTests {
    struct Bad: Error, Equatable { let text: String }

    static func load(_ path: String) throws(Bad) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard !text.hasPrefix("bad") else { throw Bad(text: text) }
        return text
    }

    @Test func reloadsWhenTheFileChangesAndKeepsTheLastGoodValue() throws {
        let path = NSTemporaryDirectory() + "reloading-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "one".write(toFile: path, atomically: true, encoding: .utf8)
        let file = try ReloadingFile(path: path, same: ==, load: Self.load)
        #expect(file.current == ("one", 1))
        guard case .unchanged = file.reloadIfChanged() else { Issue.record("nothing changed"); return }

        try "two!".write(toFile: path, atomically: true, encoding: .utf8)
        guard case .reloaded("two!", 2) = file.reloadIfChanged() else { Issue.record("a change is loaded"); return }

        try "bad file".write(toFile: path, atomically: true, encoding: .utf8)
        guard case .rejected(Bad(text: "bad file")) = file.reloadIfChanged() else { Issue.record("rejected"); return }
        guard case .unchanged = file.reloadIfChanged() else { Issue.record("a bad file is tried once"); return }
        #expect(file.current == ("two!", 2))

        guard case .rejected = file.reload() else { Issue.record("a reload by hand reads the bad file again"); return }
        #expect(file.current == ("two!", 2))
    }
}

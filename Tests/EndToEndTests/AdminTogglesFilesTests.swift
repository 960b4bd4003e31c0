import Foundation
import Testing
import TestSupport

/// The toggles' files damaged while the server was down: a version file of the history, or the
/// toggles file itself, is set aside and the server starts; nothing typed is lost.
@Suite(.serialized) final class AdminTogglesFilesTests {
    let folder: TemporaryDirectory
    let togglesPath: String

    init() throws {
        folder = try TemporaryDirectory("admin-files")
        togglesPath = try folder.write("toggles.json", #"{"defaultLayout": "list", "onboarding": false}"#)
    }

    func start(_ extra: [String] = []) throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--toggles", togglesPath, "--report-log", folder.path("reports")] + extra)
    }

    @Test func aDamagedVersionIsSetAsideAndTheServerStarts() throws {
        var server = try start()
        #expect(try AdminTogglesTests.apply(["defaultLayout": "grid"], note: "grid", with: Browser(port: server.port)).status == 303)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let history = folder.path("reports/config-history/toggles")
        try Data("{\"version\": 2, \"tim".utf8).write(to: URL(fileURLWithPath: history + "/v00000002.json"))
        server = try start()
        #expect(FileManager.default.fileExists(atPath: history + "/v00000002.json.damaged"))
        let page = try server.client.get("/admin").text
        #expect(page.contains("1 version file could not be read and was set aside: v00000002.json.damaged"))
        #expect(try AdminTogglesTests.homeLayout(server) == "grid", "the file still serves")
        // The file is newer than the newest readable version: recorded again, under a new number.
        #expect(page.contains("data-version=\"3\""), "\(page)")
    }

    /// A toggles file damaged or deleted while the server was down: set aside, and the server
    /// starts from the history's newest version, saying so; without a history it still refuses.
    @Test func aDamagedOrMissingTogglesFileIsRestoredFromItsHistoryAtStart() throws {
        var server = try start()
        #expect(try AdminTogglesTests.apply(["defaultLayout": "grid"], note: "grid", with: Browser(port: server.port)).status == 303)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
        let damaged = #"{"defaultLayout": "grid", oops"#
        try damaged.write(toFile: togglesPath, atomically: true, encoding: .utf8)
        server = try start()
        #expect(try AdminTogglesTests.homeLayout(server) == "grid")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("toggles.json.damaged-") }
        #expect(kept.count == 1)
        #expect(try kept.first.map { try String(contentsOfFile: folder.path($0), encoding: .utf8) } == damaged, "nothing lost")
        let page = try HTMLDocument.parse(try server.client.get("/admin").text)
        let notice = page.first { $0["data-restored"] != nil }?.text ?? ""
        #expect(notice.contains("is not valid JSON") && notice.contains("kept as \(folder.path(kept.first ?? ""))")
                    && notice.contains("started from version 2"), "\(notice)")
        #expect(page.first { $0.hasClass("admin__version") }?["data-version"] == "2", "restored, not a new version")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)

        try FileManager.default.removeItem(atPath: togglesPath)
        server = try start()
        #expect(try AdminTogglesTests.homeLayout(server) == "grid")
        #expect(try server.client.get("/admin").text.contains("It was missing, and this instance started from version 2"))
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)

        // A first start has no version to fall back on: the server refuses, naming the file.
        let other = try folder.write("other-toggles.json", damaged)
        let refused = try ServerProcess(arguments: ["--port", "0", "--toggles", other, "--report-log", folder.path("other")],
                                        waitForListening: false)
        #expect(refused.waitForExit() != 0)
        #expect(refused.log.contains("--toggles: ") && refused.log.contains("is not valid JSON"), "\(refused.log)")
    }
}

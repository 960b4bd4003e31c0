import Foundation
import Testing
import TestSupport

/// A change to the content or toggles file that the server refuses is shown on `/reports`, with
/// its message and time, until a later change of that file is accepted: it reached only the log.
@Suite struct RefusedChangesTests {
    static let root = ServerProcess.repositoryRoot
    let folder: TemporaryDirectory
    let server: ServerProcess
    let content: String
    let toggles: String

    init() throws {
        folder = try TemporaryDirectory("refused-changes")
        content = folder.path("content.json")
        toggles = folder.path("toggles.json")
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("Config/content.json").path, toPath: content)
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("Config/toggles.json").path, toPath: toggles)
        server = try ServerProcess(arguments: [
            "--port", "0", "--public", Self.root.appendingPathComponent("Public").path, "--report-log", folder.path("reports"),
            "--content", content, "--toggles", toggles,
        ])
    }

    /// The notice's entry for `file` (`content`, `toggles`), if the page shows one.
    func refusal(_ file: String) throws -> HTMLElement? {
        let response = try server.client.get("/reports")
        #expect(response.status == 200)
        return try HTMLDocument.parse(response.text).first { $0["data-refused"] == file }
    }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aRefusedTogglesChangeIsShownUntilTheFileIsGoodAgain() throws {
        #expect(try refusal("toggles") == nil)
        let good = try String(contentsOfFile: toggles, encoding: .utf8)
        let before = Date().addingTimeInterval(-1)
        try write(#"{"defaultLayout": "nowhere"}"#, to: toggles)
        try eventually { try refusal("toggles") != nil }
        let entry = try #require(try refusal("toggles"))
        #expect(entry.text.contains(toggles))
        #expect(entry.text.contains("the previous toggles stay in force"))
        let message = try #require(entry.first { $0["data-refused-message"] != nil }?.text)
        #expect(message.contains("nowhere"), "the toggles' own message: \(message)")
        let time = try #require(entry.first { $0.tag == "time" }?["datetime"])
        let at = try #require(ReportsChartAxisTests.time(time))
        #expect(at >= before && at <= Date(), "\(time)")
        try eventually("logged as well") { server.log.contains("toggles not reloaded") }
        // The content file was not touched: nothing said about it.
        #expect(try refusal("content") == nil)
        // Put back as it was: the toggles in force again, so no longer a refusal.
        try write(good, to: toggles)
        try eventually { try refusal("toggles") == nil }
    }

    @Test func aRefusedContentChangeIsShownUntilAChangeIsAccepted() throws {
        let good = try String(contentsOfFile: content, encoding: .utf8)
        try write("{\"items\": [", to: content)
        try eventually { try refusal("content") != nil }
        let entry = try #require(try refusal("content"))
        #expect(entry.text.contains("the previous catalogue stays in force"))
        #expect(try #require(entry.first { $0["data-refused-message"] != nil }?.text).isEmpty == false)
        try write(good, to: content)
        try eventually { try refusal("content") == nil }
    }
}

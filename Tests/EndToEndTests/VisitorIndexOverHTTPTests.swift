import Foundation
import Testing
import TestSupport

/// An imported log whose visitor indexes are one missing and one damaged, served by the real
/// `dynamic-home` process: it starts, sets the damaged index aside into `damaged/` and says so,
/// makes both again, and a visitor's figures (by whole id or by the 8 characters the pages show)
/// are every one of their events, before and after.
@Suite struct VisitorIndexOverHTTPTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }
    let publicFolder = ServerProcess.publicFolder
    static let events = 4000
    /// Hex ids; the first two share their first 8 digits.
    static let visitors = ["4f1c2a9e0b7d41c3a5e6f70812345678", "4f1c2a9e77777777aaaaaaaabbbbbbbb", "9d0e8b7c6a5f4e3d2c1b0a9988776655",
                           "00112233445566778899aabbccddeeff", "abcdefabcdefabcdefabcdefabcdefab"]

    init() throws { folder = try TemporaryDirectory("visitor-index-http") }

    static func visitor(_ index: Int) -> String { visitors[(index * 7 + index / 11) % visitors.count] }

    func importLog() throws {
        let file = folder.path("old.jsonl")
        let lines = (0..<Self.events).map { index in
            #"{"timestamp":"2026-11-21T\#(String(format: "%02d", index / 3600)):\#(String(format: "%02d", index / 60 % 60)):\#(String(format: "%02d", index % 60)).000Z","event":"launch","layout":"grid","visitor":"\#(Self.visitor(index))","request":"imp-\#(index)"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ServerProcess(arguments: ["reports", "import", file, "--report-log", logPath, "--report-segment-bytes", "64KiB"],
                                         waitForListening: false)
        #expect(imported.waitForExit() == 0)
    }

    func total(_ server: ServerProcess, _ visitor: String) throws -> Int? {
        let response = try server.client.get("/reports.json?visitor=\(visitor)")
        #expect(response.status == 200, "\(response.text)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return json["total"] as? Int
    }

    func expectEveryEvent(_ server: ServerProcess) throws {
        for (index, visitor) in Self.visitors.enumerated() {
            let expected = (0..<Self.events).filter { Self.visitor($0) == visitor }.count
            #expect(expected > 0)
            #expect(try total(server, visitor) == expected, "visitor \(index)")
            if index >= 2 { #expect(try total(server, String(visitor.prefix(8))) == expected, "visitor \(index) by its start") }
        }
        #expect(try server.client.get("/reports.json?visitor=4f1c2a9e").status == 400, "two ids start so")
        #expect(try total(server, "4f1c2a9e7") == (0..<Self.events).filter { Self.visitor($0) == Self.visitors[1] }.count)
    }

    @Test func aMissingAndADamagedIndexAreMadeAgainAndTheServerStartsAndAnswers() throws {
        try importLog()
        let indexes = try FileManager.default.contentsOfDirectory(atPath: logPath).filter { $0.hasSuffix(".vix") }.sorted()
        try #require(indexes.count >= 4, "\(indexes)")
        let original = try indexes.map { try Data(contentsOf: URL(fileURLWithPath: logPath + "/" + $0)) }
        try FileManager.default.removeItem(atPath: logPath + "/" + indexes[0])
        var damaged = [UInt8](original[1])
        for index in (damaged.count / 2)..<(damaged.count / 2 + 8) { damaged[index] ^= 0xFF }
        try Data(damaged).write(to: URL(fileURLWithPath: logPath + "/" + indexes[1]))

        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log", logPath])
        #expect(try server.client.get("/").status == 200)
        try eventually { server.log.contains("set aside a damaged visitor index") && server.log.contains(indexes[1]) }
        #expect(FileManager.default.fileExists(atPath: logPath + "/damaged/" + indexes[1]))
        #expect(FileManager.default.fileExists(atPath: logPath + "/damaged/" + indexes[1] + ".reason"))
        try expectEveryEvent(server)
        try eventually {
            indexes.indices.prefix(2).allSatisfy { (try? Data(contentsOf: URL(fileURLWithPath: logPath + "/" + indexes[$0]))) == original[$0] }
        }
        // An index is no segment: no events are said to be left out.
        #expect(try server.client.get("/reports.json").text.contains("\"setAside\":{\"segments\":0"))
        try expectEveryEvent(server)
    }
}

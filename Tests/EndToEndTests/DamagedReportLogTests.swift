import Foundation
import Testing
import TestSupport

/// A report log with a damaged closed segment, served by the real `dynamic-home` process: it
/// starts, sets the segment aside into `damaged/`, says so (log, `/reports`, `/metrics`,
/// `/reports.json`), serves the rest, and a raw-log reader can tell its lines were cut short.
@Suite struct DamagedReportLogTests {
    enum Damage: String, CustomStringConvertible, Sendable {
        /// 64 bytes inverted in the middle of the file.
        case flipped
        /// Cut to half its size.
        case truncated
        var description: String { rawValue }
    }

    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }
    let publicFolder = ServerProcess.publicFolder
    static let events = 3000

    init() throws { folder = try TemporaryDirectory("damaged") }

    /// Imports `events` lines (requests `imp-<n>`) into closed, compressed 64 KiB segments.
    func importLog() throws {
        let file = folder.path("old.jsonl")
        let lines = (0..<Self.events).map { index in
            #"{"timestamp":"2026-11-21T\#(String(format: "%02d", index / 3600)):\#(String(format: "%02d", index / 60 % 60)):\#(String(format: "%02d", index % 60)).000Z","event":"launch","layout":"grid","visitor":"v\#(index % 7)","request":"imp-\#(index)"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ServerProcess(arguments: ["reports", "import", file, "--report-log", logPath, "--report-segment-bytes", "64KiB"],
                                         waitForListening: false)
        #expect(imported.waitForExit() == 0)
    }

    /// The third compressed segment, damaged; returns its name and how many lines it held.
    func damageASegment(_ damage: Damage, keepRollup: Bool) throws -> (name: String, lines: Int) {
        let names = try FileManager.default.contentsOfDirectory(atPath: logPath).filter { $0.hasSuffix(".jsonl.gz") }.sorted()
        try #require(names.count >= 4)
        let name = names[2]
        let path = logPath + "/" + name
        let lines = try Subprocess.run("/bin/sh", ["-c", "zcat \"$0\" | wc -l", path]).output
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case .flipped:
            for index in (bytes.count / 2)..<(bytes.count / 2 + 64) { bytes[index] ^= 0xFF }
        case .truncated:
            bytes.removeLast(bytes.count / 2)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        if !keepRollup { try FileManager.default.removeItem(atPath: logPath + "/" + name.replacingOccurrences(of: ".jsonl.gz", with: ".rollup")) }
        return (name, Int(lines.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
    }

    func start() throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log", logPath])
    }

    func importedLines(_ text: String) -> Int {
        text.split(separator: "\n").filter { $0.contains("\"request\":\"imp-") }.count
    }

    @Test(arguments: [(Damage.flipped, false), (.truncated, false), (.truncated, true)])
    func aDamagedSegmentFoundAtStartIsSetAsideAndTheRestServed(damage: Damage, keepRollup: Bool) throws {
        try importLog()
        let (name, lines) = try damageASegment(damage, keepRollup: keepRollup)
        let server = try start()
        #expect(try server.client.get("/").status == 200)
        try expectSetAside(name, lines: lines, by: server)
    }

    /// Found while answering: the raw log is cut short (no zero chunk), then the segment is set aside.
    @Test func aDamagedSegmentFoundByTheRawLogCutsItShortAndIsSetAside() throws {
        try importLog()
        // Damaged once the server has read the log back at start (the viewing history or the
        // play statistics would otherwise find it first), so the raw log is the first to meet it.
        let server = try start()
        try eventually { server.log.contains("viewing history loaded") && server.log.contains("play statistics rebuilt") }
        // The key names the unit; the figure does not repeat it.
        let rebuilt = try #require(server.log.split(separator: "\n").first { $0.contains("play statistics rebuilt") })
        #expect(rebuilt.contains(/seconds=\d+\.\d{3}( |$)/), "\(rebuilt)")
        let (name, lines) = try damageASegment(.flipped, keepRollup: true)
        #expect(try server.client.get("/").status == 200)
        let connection = try HTTPConnection(port: server.port)
        try connection.send("GET /reports.jsonl HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readStreamHead().status == 200)
        var received: [UInt8] = []
        let ended: Bool
        do {
            while let chunk = try connection.readChunk() { received += chunk }
            ended = true
        } catch {
            ended = false
        }
        #expect(!ended, "the answer ended with a zero chunk, as if whole")
        #expect(importedLines(String(decoding: received, as: UTF8.self)) < Self.events - lines)
        try expectSetAside(name, lines: lines, by: server)
    }

    /// Found by a visitor's counts: the response says the segment was left out, and it is set aside.
    @Test func aVisitorCountThatMeetsADamagedSegmentSaysSo() throws {
        try importLog()
        let (name, lines) = try damageASegment(.flipped, keepRollup: true)
        let server = try start()
        let json = try server.client.get("/reports.json?visitor=v3&from=2026-11-21&to=2026-11-21")
        #expect(json.status == 200)
        #expect(json.text.contains("\"setAside\":{\"segments\":1,\"files\":[{\"file\":\"\(name)\""), "\(json.text)")
        try expectSetAside(name, lines: lines, by: server)
    }

    func expectSetAside(_ name: String, lines: Int, by server: ServerProcess) throws {
        try eventually { FileManager.default.fileExists(atPath: logPath + "/damaged/" + name + ".reason") }
        #expect(FileManager.default.fileExists(atPath: logPath + "/damaged/" + name))
        #expect(!FileManager.default.fileExists(atPath: logPath + "/" + name))
        // The log is read from the process as it comes.
        try eventually { server.log.contains("set aside a damaged report segment") && server.log.contains(name) }
        let page = try server.client.get("/reports")
        #expect(page.status == 200)
        #expect(page.text.contains("data-set-aside=\"1\""))
        #expect(page.text.contains("data-set-aside-file=\"\(name)\""))
        #expect(try server.client.get("/metrics").text.contains("\ndynamic_home_report_segments_set_aside 1\n"))
        let json = try server.client.get("/reports.json?visitor=v3").text
        #expect(json.contains("\"setAside\":{\"segments\":1,\"files\":[{\"file\":\"\(name)\""))
        // Everything else, whole, and a header saying a segment is left out.
        let raw = try server.client.get("/reports.jsonl")
        #expect(raw.status == 200)
        #expect(raw.header("X-Report-Segments-Set-Aside") == "1")
        #expect(importedLines(raw.text) == Self.events - lines)
        #expect(lines > 0)
    }
}

import Foundation
import Testing
import TestSupport

/// `dynamic-home reports check` over a directory with several problems: each file named, with why.
@Suite struct ReportCheckCommandTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("check") }

    /// Closed, compressed 64 KiB segments of 3,000 imported events.
    func importLog() throws {
        let file = folder.path("old.jsonl")
        let lines = (0..<3000).map { index in
            #"{"timestamp":"2026-11-21T\#(String(format: "%02d", index / 3600)):\#(String(format: "%02d", index / 60 % 60)):\#(String(format: "%02d", index % 60)).000Z","event":"launch","layout":"grid","visitor":"v\#(index % 7)","request":"imp-\#(index)"}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try ServerProcess(arguments: ["reports", "import", file, "--report-log", logPath, "--report-segment-bytes", "64KiB"],
                                         waitForListening: false)
        #expect(imported.waitForExit() == 0)
    }

    /// The third compressed segment with 64 bytes inverted in its middle; its name.
    func damageASegment() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: logPath).filter { $0.hasSuffix(".jsonl.gz") }.sorted()
        try #require(names.count >= 4)
        let path = logPath + "/" + names[2]
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        for index in (bytes.count / 2)..<(bytes.count / 2 + 64) { bytes[index] ^= 0xFF }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return names[2]
    }

    /// `reports check` over two different problems names both files, exits 1; `--set-aside`
    /// moves the damaged one and releases it, the malformed line stays a problem.
    @Test func checkNamesEveryProblemAndSetsAsideTheDamagedSegment() throws {
        try importLog()
        let damaged = try damageASegment()
        // A torn last line in the active segment (as a crash leaves it).
        let active = logPath + "/events-20261122T000000.000Z.jsonl"
        try (#"{"timestamp":"2026-11-22T00:00:00.000Z","event":"launch","layout":"grid","request":"late"}"# + "\n"
             + #"{"timestamp":"2026-11-22T00:00:01.000Z","ev"#).write(toFile: active, atomically: true, encoding: .utf8)
        let check = try ServerProcess(arguments: ["reports", "check", "--report-log", logPath], waitForListening: false)
        #expect(check.waitForExit() == 1)
        #expect(check.log.contains("damaged: \(damaged): "), "\(check.log)")
        #expect(check.log.contains("malformed: events-20261122T000000.000Z.jsonl: a torn last line"), "\(check.log)")
        #expect(!check.log.contains("ScanError"))
        #expect(!check.log.contains("dynamic-home: \n"))

        let setAside = try ServerProcess(arguments: ["reports", "check", "--set-aside", "--report-log", logPath], waitForListening: false)
        #expect(setAside.waitForExit() == 1)
        #expect(setAside.log.contains("set aside: \(damaged) is in damaged/ and released"), "\(setAside.log)")
        #expect(!setAside.log.contains("damaged: \(damaged)"))
        #expect(FileManager.default.fileExists(atPath: logPath + "/damaged/" + damaged + ".released"))
        #expect(!FileManager.default.fileExists(atPath: logPath + "/" + damaged))
        #expect(setAside.log.contains("malformed: events-20261122T000000.000Z.jsonl"))
    }
}

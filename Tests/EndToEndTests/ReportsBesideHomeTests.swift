import Foundation
import Synchronization
import Testing
import TestSupport

/// Report pages over a large log run on their own workers: the home page keeps being served.
@Suite struct ReportsBesideHomeTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }
    let publicFolder = ServerProcess.publicFolder

    init() throws { folder = try TemporaryDirectory("reports-beside-home") }

    /// `count` events in the log's line format, a second apart, ending now, as one segment of
    /// the log directory `path` (without rollups: the server builds them at start).
    static func writeLog(_ path: String, count: Int) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let start = Date().addingTimeInterval(-Double(count))
        let events = ["launch", "long_selected", "short_selected", "stream_selected"]
        let layouts = ["grid", "list"]
        var text = ""
        text.reserveCapacity(count * 190)
        for index in 0..<count {
            let time = formatter.string(from: start.addingTimeInterval(Double(index)))
            text += #"{"timestamp":"\#(time)","event":"\#(events[index % 4])","layout":"\#(layouts[index % 2])","#
                + #""item":"m-\#(index % 40)","visitor":"v-\#(index % 997)","request":"r-\#(index)"}"# + "\n"
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let name = formatter.string(from: start).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/events-\(name).jsonl"))
    }

    @Test func eightReportClientsDoNotStallTheHomePage() throws {
        try Self.writeLog(logPath, count: 25_000)
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log", logPath,
                                                   "--threads", "2"])
        let port = server.port
        #expect(try server.client.get("/reports").status == 200)
        let reportsDone = Atomic<Int>(0)
        let reports = Threads.start(8) { _ -> [Int] in
            defer { reportsDone.add(1, ordering: .relaxed) }
            return (0..<10).map { _ in (try? HTTPClient(port: port).get("/reports").status) ?? 0 }
        }
        // A stall detector, not a benchmark: a report scan held a server thread (and every home
        // request behind it) for seconds; now no home request waits near that long.
        var slowest = Duration.zero
        var requested = 0, answered = 0
        let clock = ContinuousClock()
        while (reportsDone.load(ordering: .relaxed) < 8 || requested < 20), requested < 400 {
            let started = clock.now
            let status = (try? HTTPConnection(port: port, timeoutSeconds: 10).request("GET", "/").status) ?? 0
            slowest = max(slowest, clock.now - started)
            requested += 1
            if status == 200 { answered += 1 }
            Thread.sleep(forTimeInterval: 0.05)  // a visitor's pace, spreading the probes over the reports' run
        }
        let statuses = reports.wait().flatMap { $0 }
        #expect(answered == requested)
        #expect(slowest < .seconds(2), "the slowest home page took \(slowest)")
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    /// Each thread of process `pid` by name, with its nice value.
    static func threadNiceness(_ pid: Int32) throws -> [(name: String, nice: Int)] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").compactMap { task in
            let name = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let stat = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)
            // Fields after the name, which may itself hold spaces: state is field 3, nice field 19.
            guard let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
            return (name, nice)
        }
    }

    @Test func reportWorkersYieldTheCoresToThePages() throws {
        let server = try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log", logPath,
                                                   "--threads", "2"])
        #expect(try server.client.get("/reports").status == 200)
        let threads = try Self.threadNiceness(server.processIdentifier)
        // The server inherits the test's nice value; the report workers are 10 above it.
        let own = Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        let reports = threads.filter { $0.name.hasPrefix("reports-") }
        #expect(!reports.isEmpty, "\(threads.map(\.name))")
        #expect(reports.allSatisfy { $0.nice == min(19, own + 10) }, "\(reports)")
        // The other readers of the whole log (the viewing history at start, its look-ups of
        // visitors not held, the play statistics) yield the cores the same way.
        let background: Set<String> = ["viewing-load", "viewing-lookup", "play-stats"]
        let others = threads.filter { !$0.name.hasPrefix("reports-") && !background.contains($0.name) }
        #expect(others.allSatisfy { $0.nice == own }, "the page threads keep the default: \(others)")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }
}

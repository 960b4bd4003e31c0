import Foundation
import Testing
import TestSupport

/// Who is in which experiment, through the real `dynamic-home` process, read back from the
/// report log: an allowlisted id gets its group, targeting by device (User-Agent and client
/// hint), first language and new or returning keeps everyone else out, and every line that
/// names an experiment also names the segments `device` and `cohort`.
@Suite struct ExperimentTargetingTests {
    static let listedID = "0123456789abcdef0123456789abcdef"
    static let desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
    static let phone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("experiment-targeting") }

    func start(_ toggles: String) throws -> ServerProcess {
        let path = folder.path("toggles.json")
        try Data(toggles.utf8).write(to: URL(fileURLWithPath: path))
        return try ServerProcess(arguments: [
            "--port", "0", "--public", ServerProcess.publicFolder, "--toggles", path,
            "--report-log", logPath, "--report-visitor-rate", "0", "--report-address-rate", "0",
        ])
    }

    /// Each visitor's `launch` lines' properties, once `count` of them are in the log.
    func launches(count: Int) throws -> [String: [[String: String]]] {
        var byVisitor: [String: [[String: String]]] = [:]
        try eventually("\(count) launch lines in the log", timeout: 20) {
            byVisitor = [:]
            guard let text = try? ReportSegments.text(of: logPath) else { return false }
            var seen = 0
            for line in text.split(separator: "\n") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["event"] as? String == "launch", let visitor = object["visitor"] as? String else { continue }
                byVisitor[visitor, default: []].append(object["properties"] as? [String: String] ?? [:])
                seen += 1
            }
            return seen >= count
        }
        return byVisitor
    }

    static func id(_ index: Int) -> String { String(format: "%032x", 0x5EED_0000 + index) }

    @Test func anAllowlistedVisitorGetsTheirGroupAndOthersTheHash() throws {
        let server = try start(#"""
            {"experiments": [{"name": "listed", "groups": [{"name": "a", "layout": "list"},
             {"name": "b", "weight": 0.0001, "layout": "grid", "visitors": ["\#(Self.listedID)"]}]}]}
            """#)
        let listed = Browser(port: server.port)
        listed.setCookie("visitor", Self.listedID)
        #expect(try listed.get("/").text.contains(#"name="layout" value="grid""#))
        for index in 0..<20 {
            let other = Browser(port: server.port)
            other.setCookie("visitor", Self.id(index))
            #expect(try other.get("/").text.contains(#"name="layout" value="list""#))
        }
        let lines = try launches(count: 21)
        #expect(lines[Self.listedID]?.first?["experiment.listed"] == "b")
        #expect((0..<20).allSatisfy { lines[Self.id($0)]?.first?["experiment.listed"] == "a" })
    }

    @Test func aPhonesOnlyExperimentNeverTakesADesktopVisitor() throws {
        let server = try start(#"""
            {"experiments": [{"name": "phones", "groups": [{"name": "a"}, {"name": "b"}], "targeting": {"device": ["phone"]}}]}
            """#)
        // Forty desktops (one with the hint saying not mobile), twenty phones by User-Agent, twenty by the client hint alone.
        let kinds: [(headers: [(String, String)], device: String?)] = [
            ([("User-Agent", Self.desktop)], nil), ([("User-Agent", Self.desktop), ("Sec-CH-UA-Mobile", "?0")], nil),
            ([("User-Agent", Self.phone)], "phone"), ([("User-Agent", Self.desktop), ("Sec-CH-UA-Mobile", "?1")], "phone"),
        ]
        for index in 0..<80 {
            let browser = Browser(port: server.port)
            browser.setCookie("visitor", Self.id(index))
            try browser.get("/", headers: kinds[index % 4].headers)
        }
        let lines = try launches(count: 80)
        for index in 0..<80 {
            let properties = try #require(lines[Self.id(index)]?.first)
            if kinds[index % 4].device == nil {
                #expect(properties["experiment.phones"] == nil && properties["device"] == nil, "\(index): \(properties)")
            } else {
                #expect(properties["experiment.phones"] != nil, "\(index): \(properties)")
                #expect(properties["device"] == "phone" && properties["cohort"] == "returning")
            }
        }
    }

    @Test func languageAndNewOrReturningTargeting() throws {
        let server = try start(#"""
            {"experiments": [{"name": "german", "groups": [{"name": "a"}, {"name": "b"}], "targeting": {"language": ["de"]}},
                             {"name": "newcomers", "groups": [{"name": "a"}, {"name": "b"}], "targeting": {"visitor": "new"}}]}
            """#)
        let german = Browser(port: server.port)
        german.setCookie("visitor", Self.id(1))
        try german.get("/", headers: [("Accept-Language", "de-CH, de;q=0.9, en;q=0.8"), ("User-Agent", Self.desktop)])
        let english = Browser(port: server.port)
        english.setCookie("visitor", Self.id(2))
        try english.get("/", headers: [("Accept-Language", "en-GB, de;q=0.9")])
        // A first visit without the cookie is new; the same browser's next visit, with it, is returning.
        let newcomer = Browser(port: server.port)
        try newcomer.get("/")
        let newID = try #require(newcomer.cookies["visitor"])
        try newcomer.get("/")
        let lines = try launches(count: 4)
        #expect(lines[Self.id(1)]?.first?["experiment.german"] != nil)
        #expect(lines[Self.id(1)]?.first?["device"] == "desktop")
        #expect(lines[Self.id(1)]?.first?["experiment.newcomers"] == nil)
        #expect(lines[Self.id(2)]?.first?["experiment.german"] == nil)
        #expect(lines[Self.id(2)]?.first?.keys.contains { $0.hasPrefix("experiment.") } == false)
        let newcomerLines = try #require(lines[newID])
        #expect(newcomerLines.count == 2)
        #expect(newcomerLines.first?["experiment.newcomers"] != nil && newcomerLines.first?["cohort"] == "new")
        #expect(newcomerLines.last?["experiment.newcomers"] == nil)
    }

    /// 2,000 synthetic visitors: two experiments of one namespace never share one, and each
    /// takes near its range's share; a third in another namespace overlaps both independently.
    @Test func experimentsOfOneNamespaceNeverShareAVisitor() throws {
        let server = try start(#"""
            {"experiments": [
              {"name": "left", "groups": [{"name": "a"}, {"name": "b"}], "namespace": {"name": "home", "range": [0, 0.3]}},
              {"name": "right", "groups": [{"name": "a"}, {"name": "b"}], "namespace": {"name": "home", "range": [0.3, 1]}},
              {"name": "across", "groups": [{"name": "a"}, {"name": "b"}], "namespace": {"name": "side", "range": [0, 0.5]}}]}
            """#)
        let port = server.port
        let failures = Threads.start(8) { thread -> Int in
            var failures = 0
            for index in stride(from: thread, to: 2000, by: 8) {
                var random = SplitMix64(state: UInt64(index) &* 0x9E37_79B9 &+ 41)
                let browser = Browser(port: port)
                browser.setCookie("visitor", String(format: "%016llx%016llx", random.next(), random.next()))
                if (try? browser.get("/"))?.status != 200 { failures += 1 }
            }
            return failures
        }.wait()
        #expect(failures.allSatisfy { $0 == 0 })
        let lines = try launches(count: 2000)
        #expect(lines.count == 2000)
        var left = 0, right = 0, across = 0, acrossInLeft = 0
        for properties in lines.values.compactMap(\.first) {
            let inLeft = properties["experiment.left"] != nil, inRight = properties["experiment.right"] != nil
            #expect(inLeft != inRight, "\(properties)")
            if inLeft { left += 1 }
            if inRight { right += 1 }
            if properties["experiment.across"] != nil {
                across += 1
                if inLeft { acrossInLeft += 1 }
            }
        }
        // Within four standard errors of the ranges' shares.
        #expect(abs(Double(left) / 2000 - 0.3) < 4 * (0.21 / 2000).squareRoot(), "\(left)")
        #expect(abs(Double(across) / 2000 - 0.5) < 4 * (0.25 / 2000).squareRoot(), "\(across)")
        #expect(abs(Double(acrossInLeft) / Double(max(left, 1)) - 0.5) < 4 * (0.25 / Double(max(left, 1))).squareRoot(),
                "\(acrossInLeft) of \(left)")
    }
}

import Foundation
import Testing
import TestSupport

/// The visitor-level experiment results through the real `dynamic-home` process: scripted
/// visitors with a known effect, the exact sums checked against the raw report log, and a broken
/// split that raises the sample-ratio warning.
@Suite struct ExperimentVisitorsTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("experiment-visitors") }

    func start(_ toggles: String) throws -> ServerProcess { try ExperimentSegmentsTests.start(toggles, in: folder) }

    /// The fourteen sums per group of `experiment`, counted from the raw log lines the obvious way.
    static func sums(fromLog text: String, experiment: String) throws -> [String: [String: Int]] {
        var visitors: [String: (group: String, views: Int, selections: Int, plays: Int, kinds: Set<String>)] = [:]
        for line in text.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard let visitor = object["visitor"] as? String,
                  let group = (object["properties"] as? [String: String])?["experiment.\(experiment)"] else { continue }
            var state = visitors[visitor] ?? (group, 0, 0, 0, [])
            let event = object["event"] as? String ?? ""
            if event == "launch" { state.views += 1 }
            if ["long_selected", "short_selected", "stream_selected"].contains(event) { state.selections += 1 }
            if event == "play_started" { state.plays += 1 }
            state.kinds.insert(event)
            visitors[visitor] = state
        }
        var out: [String: [String: Int]] = [:]
        for (_, v) in visitors {
            var s = out[v.group] ?? [:]
            let add = { (key: String, value: Int) in s[key, default: 0] += value }
            add("visitors", 1)
            add("converting", v.selections > 0 ? 1 : 0)
            add("convertingLong", v.kinds.contains("long_selected") ? 1 : 0)
            add("convertingShort", v.kinds.contains("short_selected") ? 1 : 0)
            add("convertingStream", v.kinds.contains("stream_selected") ? 1 : 0)
            add("selections", v.selections)
            add("selectionSquares", v.selections * v.selections)
            add("views", v.views)
            add("viewSquares", v.views * v.views)
            add("viewSelectionProducts", v.views * v.selections)
            add("erroring", v.kinds.contains("error_shown") ? 1 : 0)
            add("playing", v.plays > 0 ? 1 : 0)
            add("plays", v.plays)
            add("playSquares", v.plays * v.plays)
            out[v.group] = s
        }
        return out
    }

    /// The `visitors` member of the experiment in `/reports.json`.
    static func visitorsMember(_ server: ServerProcess, _ experiment: String) throws -> [String: Any]? {
        let json = try JSONSerialization.jsonObject(with: Data(try server.client.get("/reports.json").body)) as? [String: Any]
        let experiments = json?["experiments"] as? [[String: Any]] ?? []
        return experiments.first { $0["name"] as? String == experiment }?["visitors"] as? [String: Any]
    }

    static func groupSums(_ member: [String: Any]?) -> [String: [String: Int]] {
        var out: [String: [String: Int]] = [:]
        for group in member?["groups"] as? [[String: Any]] ?? [] {
            guard let name = group["group"] as? String else { continue }
            out[name] = group.compactMapValues { $0 as? Int }
        }
        return out
    }

    /// 2,000 visitors (ids from a fixed seed, so the split is fixed too) see the home page one to
    /// three times; list visitors open something with 20% chance, grid visitors with 35%.
    @Test func twoThousandVisitorsWithAKnownEffectAreCountedExactly() throws {
        let server = try start(#"""
            {"experiments": [{"name": "layout-test", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}
            """#)
        let port = server.port
        let runs = Threads.start(8) { thread -> (views: Int, selections: Int, plays: Int, failures: Int) in
            var views = 0, selections = 0, plays = 0, failures = 0
            for index in stride(from: thread, to: 2000, by: 8) {
                var random = SplitMix64(state: UInt64(index) &* 0x9E37_79B9 &+ 17)
                let session = Browser(port: port)
                session.setCookie("visitor", String(format: "%016llx%016llx", random.next(), random.next()))
                let pages = Int.random(in: 1...3, using: &random)
                var layout = ""
                for _ in 0..<pages {
                    guard let page = try? session.get("/"), page.status == 200 else { failures += 1; continue }
                    views += 1
                    layout = page.text.contains(#"name="layout" value="grid""#) ? "grid" : "list"
                }
                // Grid visitors start a play more often (40% against 15%), one to three times.
                if Double.random(in: 0..<1, using: &random) < (layout == "grid" ? 0.40 : 0.15) {
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        let played = try? session.post("/watch/m-001/play", withToken: [])
                        if played?.status == 303 { plays += 1 } else { failures += 1 }
                    }
                }
                guard Double.random(in: 0..<1, using: &random) < (layout == "grid" ? 0.35 : 0.20) else { continue }
                for open in ["0.0", "1.0"].prefix(Int.random(in: 1...2, using: &random)) {
                    let posted = try? session.post("/home/actions", withToken: [("layout", layout), ("open", open)])
                    if posted?.status == 303 { selections += 1 } else { failures += 1 }
                }
            }
            return (views, selections, plays, failures)
        }.wait()
        #expect(runs.allSatisfy { $0.failures == 0 })
        let views = runs.reduce(0) { $0 + $1.views }, selections = runs.reduce(0) { $0 + $1.selections }
        let plays = runs.reduce(0) { $0 + $1.plays }
        // Every request's event is in the log, then the tallies equal the log's own count.
        var fromLog: [String: [String: Int]] = [:]
        try eventually("\(fromLog) vs \(views) views, \(selections) selections", timeout: 30) {
            guard let text = try? ReportSegments.text(of: logPath) else { return false }
            fromLog = (try? Self.sums(fromLog: text, experiment: "layout-test")) ?? [:]
            return fromLog.values.reduce(0) { $0 + ($1["views"] ?? 0) } == views
                && fromLog.values.reduce(0) { $0 + ($1["selections"] ?? 0) } == selections
                && fromLog.values.reduce(0) { $0 + ($1["plays"] ?? 0) } == plays
        }
        #expect(plays > 0 && fromLog.values.allSatisfy { ($0["playing"] ?? 0) > 0 })
        var member: [String: Any]?
        try eventually("\(Self.groupSums(member)) vs \(fromLog)", timeout: 15) {
            member = try? Self.visitorsMember(server, "layout-test")
            return Self.groupSums(member).mapValues { $0.filter { $0.key != "weight" } } == fromLog
        }
        #expect(fromLog.values.reduce(0) { $0 + ($1["visitors"] ?? 0) } == 2000)
        // The effect is found: more grid visitors select, the sequential test says so.
        let comparisons = member?["comparisons"] as? [[String: Any]] ?? []
        let converting = comparisons.first { $0["metric"] as? String == "converting" }
        let sequential = (converting?["sequential"] as? [String: Any])?["relative"] as? [String: Any]
        #expect((sequential?["estimate"] as? Double ?? 0) > 0.3 && (sequential?["pValue"] as? Double ?? 1) < 0.05,
                "\(String(describing: converting))")
        // So is the effect on plays, the share of visitors who played and the plays per visitor.
        for metric in ["playing", "playsPerVisitor"] {
            let comparison = comparisons.first { $0["metric"] as? String == metric }
            let lift = (comparison?["sequential"] as? [String: Any])?["relative"] as? [String: Any]
            #expect((lift?["estimate"] as? Double ?? 0) > 0.5 && (lift?["pValue"] as? Double ?? 1) < 0.05, "\(String(describing: comparison))")
        }
        #expect(member?["srmWarning"] as? Bool == false && member?["enoughData"] as? Bool == true)
        let page = try server.client.get("/reports/experiments")
        #expect(page.status == 200 && page.text.contains(#"data-test="sequential""#) && !page.text.contains("data-srm"))
        let grid = Self.groupSums(member)["b"]?["playing"] ?? -1
        #expect(page.text.contains(#"data-metric="playing""#) && page.text.contains(#"data-metric="playsPerVisitor""#)
                && page.text.contains("data-playing=\"\(grid)\""))
        // Each interval has its own p-value beside it: the difference's and the lift's can disagree.
        let table = try #require(try HTMLDocument.parse(page.text).first { $0.hasClass("experiment__comparisons") })
        for comparison in comparisons {
            let row = try #require(table.all("tr").first {
                $0["data-metric"] == comparison["metric"] as? String && $0["data-group"] == comparison["group"] as? String
            })
            for difference in ["absolute", "relative"] {
                let estimate = try #require((comparison["sequential"] as? [String: Any])?[difference] as? [String: Any])
                let p = try #require(estimate["pValue"] as? Double)
                let shown = estimate["problem"] is String ? "\u{2014}" : p < 0.001 ? "< 0.001" : String(format: "%.3f", p)
                #expect(row.first { $0["data-p"] == difference }?.text == shown, "\(difference) in \(comparison)")
            }
        }
        let fixed = try server.client.get("/reports/experiments?test=fixed")
        #expect(fixed.status == 200 && fixed.text.contains(#"data-test="fixed""#))
        let wrong = try server.client.get("/reports/experiments?test=bayesian")
        #expect(wrong.status == 400 && wrong.text.contains("sequential or fixed"))
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    /// A rollout beside an experiment that sets the layout: the start logs that the rollout waits,
    /// and the page says what visitors get once the experiment stops.
    @Test func aRolloutBesideALayoutExperimentIsSaidAloud() throws {
        let server = try start(#"""
            {"rollout": {"grid": 0.1},
             "experiments": [{"name": "layout-test", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]}]}
            """#)
        try eventually("\(server.log)", timeout: 10) { server.log.contains("the rollout does not apply to them while it is active") }
        let page = try server.client.get("/reports/experiments").text
        #expect(page.contains("data-afterwards") && page.contains("so the rollout waits: once it stops, visitors get list 90%, grid 10%."))
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    /// A log written before the start: `split-test` (50/50 in the toggles) got 5,200 visitors in a
    /// and 4,800 in b, `fair-test` 5,000 each, `new-test` 30 each, `empty-test` none. The tallies are
    /// rebuilt from it.
    @Test func aBrokenSplitRaisesTheSampleRatioWarning() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let began = Date().addingTimeInterval(-3600)
        var text = ""
        var line = 0
        for (experiment, a, b) in [("split-test", 5200, 4800), ("fair-test", 5000, 5000), ("new-test", 30, 30)] {
            for index in 0..<(a + b) {
                let time = formatter.string(from: began.addingTimeInterval(Double(line) / 100))
                line += 1
                text += #"{"timestamp":"\#(time)","event":"launch","layout":"list","visitor":"\#(experiment)-\#(index)","#
                    + #""properties":{"experiment.\#(experiment)":"\#(index < a ? "a" : "b")"}}"# + "\n"
            }
        }
        try FileManager.default.createDirectory(atPath: logPath, withIntermediateDirectories: true)
        let name = formatter.string(from: began).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        try Data(text.utf8).write(to: URL(fileURLWithPath: logPath + "/events-\(name).jsonl"))
        let groups = #"[{"name": "a"}, {"name": "b"}]"#
        let experiments = ["split-test", "fair-test", "new-test", "empty-test"].map { #"{"name": "\#($0)", "groups": \#(groups)}"# }
        let server = try start(#"{"experiments": ["# + experiments.joined(separator: ",") + "]}")
        // The tallies are counted from the log after the start, which does not wait for them.
        try eventually(timeout: 30) { (try? Self.visitorsMember(server, "split-test")) != nil }
        let split = try Self.visitorsMember(server, "split-test")
        #expect(split?["srmWarning"] as? Bool == true && (split?["srmPValue"] as? Double ?? 1) < 0.001, "\(String(describing: split))")
        #expect(Self.groupSums(split)["a"]?["visitors"] == 5200 && Self.groupSums(split)["b"]?["visitors"] == 4800)
        let fair = try Self.visitorsMember(server, "fair-test")
        #expect(fair?["srmWarning"] as? Bool == false)
        let young = try Self.visitorsMember(server, "new-test")
        #expect(young?["enoughData"] as? Bool == false)
        let html = try server.client.get("/reports/experiments").text
        let sections = html.components(separatedBy: "<section")
        let splitSection = sections.first { $0.contains(#"data-experiment="split-test""#) } ?? ""
        let fairSection = sections.first { $0.contains(#"data-experiment="fair-test""#) } ?? ""
        let youngSection = (sections.first { $0.contains(#"data-experiment="new-test""#) } ?? "")
            .components(separatedBy: "Home views in the range")[0]
        #expect(splitSection.contains("data-srm") && splitSection.contains("Sample ratio mismatch"))
        #expect(!fairSection.contains("data-srm") && fairSection.contains("data-metric"))
        #expect(youngSection.contains("data-not-enough") && !youngSection.contains("data-metric")
                && youngSection.range(of: #"[0-9]\.[0-9]%"#, options: .regularExpression) == nil)
        // An experiment nobody reached yet: no percentages, no p-value, no "views still needed".
        let emptySection = sections.first { $0.contains(#"data-experiment="empty-test""#) } ?? ""
        #expect(emptySection.contains("data-not-enough") && emptySection.contains("no views yet"))
        #expect(emptySection.range(of: #"[0-9]\.[0-9]%"#, options: .regularExpression) == nil && !emptySection.contains("more home views")
                && !emptySection.contains("p = "), "\(emptySection)")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }
}

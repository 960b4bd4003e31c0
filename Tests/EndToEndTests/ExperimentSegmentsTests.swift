import Foundation
import Testing
import TestSupport

/// The visitor figures cut by segment and by day of first exposure, the guardrails and the
/// `error_shown` events they count, and a start that serves at once while the tallies are counted,
/// through the real `dynamic-home` process and report logs written as a user's would be.
@Suite struct ExperimentSegmentsTests {
    let folder: TemporaryDirectory
    var logPath: String { folder.path("reports") }

    init() throws { folder = try TemporaryDirectory("experiment-segments") }

    func start(_ toggles: String) throws -> ServerProcess { try Self.start(toggles, in: folder) }

    /// A server with `toggles`, its report log `reports` in `folder`, and the event limits off:
    /// the scripted visitors all come from one address.
    static func start(_ toggles: String, in folder: TemporaryDirectory) throws -> ServerProcess {
        try .reporting(to: folder, eventLimits: false, ["--toggles", folder.write("toggles.json", toggles)])
    }

    struct Event {
        let ms: Int64
        let name: String
        let visitor: String
        let properties: [String: String]
    }

    static let dayMs: Int64 = 86_400_000

    /// Writes `events` (in time order) as one segment file per UTC day, as the writer would.
    func write(_ events: [Event]) throws { try Self.write(events, to: logPath) }

    static func write(_ events: [Event], to logPath: String) throws {
        try FileManager.default.createDirectory(atPath: logPath, withIntermediateDirectories: true)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for day in Dictionary(grouping: events, by: { $0.ms / Self.dayMs }).sorted(by: { $0.key < $1.key }) {
            var text = ""
            for event in day.value {
                let time = formatter.string(from: Date(timeIntervalSince1970: Double(event.ms) / 1000))
                let properties = event.properties.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",")
                text += #"{"timestamp":"\#(time)","event":"\#(event.name)","visitor":"\#(event.visitor)","properties":{\#(properties)}}"# + "\n"
            }
            let first = formatter.string(from: Date(timeIntervalSince1970: Double(day.value[0].ms) / 1000))
            let name = first.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
            try Data(text.utf8).write(to: URL(fileURLWithPath: logPath + "/events-\(name).jsonl"))
        }
    }

    /// The fourteen sums per group of `experiment`, the obvious way: each visitor in the group, device
    /// and cohort of their first event carrying the experiment, counted when that event's UTC day
    /// is in `days` (all their events, later days too) and their segment matches.
    static func sums(_ events: [Event], experiment: String, segment: String = "all",
                     days: ClosedRange<Int64>? = nil) -> [String: [String: Int]] {
        struct Visitor { var group: String; var device: String; var cohort: String; var day: Int64
            var views = 0, selections = 0, plays = 0; var kinds: Set<String> = [] }
        var visitors: [String: Visitor] = [:]
        for event in events {
            guard let group = event.properties["experiment.\(experiment)"] else { continue }
            let device = ["phone", "tablet", "desktop"].contains(event.properties["device"] ?? "") ? event.properties["device"]! : "unknown-device"
            let cohort = ["new", "returning"].contains(event.properties["cohort"] ?? "") ? event.properties["cohort"]! : "unknown-cohort"
            var visitor = visitors[event.visitor] ?? Visitor(group: group, device: device, cohort: cohort, day: event.ms / dayMs)
            if event.name == "launch" { visitor.views += 1 }
            if ["long_selected", "short_selected", "stream_selected"].contains(event.name) { visitor.selections += 1 }
            if event.name == "play_started" { visitor.plays += 1 }
            visitor.kinds.insert(event.name)
            visitors[event.visitor] = visitor
        }
        var out: [String: [String: Int]] = [:]
        for visitor in visitors.values where segment == "all" || visitor.device == segment || visitor.cohort == segment {
            if let days, !days.contains(visitor.day) { continue }
            var s = out[visitor.group] ?? [:]
            let (v, n) = (visitor.views, visitor.selections)
            for (key, value) in [("visitors", 1), ("converting", n > 0 ? 1 : 0),
                                 ("convertingLong", visitor.kinds.contains("long_selected") ? 1 : 0),
                                 ("convertingShort", visitor.kinds.contains("short_selected") ? 1 : 0),
                                 ("convertingStream", visitor.kinds.contains("stream_selected") ? 1 : 0),
                                 ("selections", n), ("selectionSquares", n * n), ("views", v), ("viewSquares", v * v),
                                 ("viewSelectionProducts", v * n), ("erroring", visitor.kinds.contains("error_shown") ? 1 : 0),
                                 ("playing", visitor.plays > 0 ? 1 : 0), ("plays", visitor.plays),
                                 ("playSquares", visitor.plays * visitor.plays)] {
                s[key, default: 0] += value
            }
            out[visitor.group] = s
        }
        return out
    }

    static func json(_ server: ServerProcess, _ query: String = "") throws -> [String: Any] {
        let response = try server.client.get("/reports.json" + query)
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "\(response.text)")
    }

    static func visitors(_ json: [String: Any], _ experiment: String) -> [String: Any]? {
        (json["experiments"] as? [[String: Any]])?.first { $0["name"] as? String == experiment }?["visitors"] as? [String: Any]
    }

    static func groupSums(_ member: [String: Any]?) -> [String: [String: Int]] {
        var out: [String: [String: Int]] = [:]
        for group in member?["groups"] as? [[String: Any]] ?? [] {
            guard let name = group["group"] as? String else { continue }
            let sums = group.compactMapValues { $0 as? Int }.filter { $0.key != "weight" }
            // A group nobody of the segment is in is left out, as the count from the log leaves it.
            if sums["visitors"] != 0 { out[name] = sums }
        }
        return out
    }

    /// 1,800 visitors first exposed over three days, each on one device and cohort at first (later
    /// events say "returning" and another device, which must not move them), some coming back on a
    /// later day: every segment and every day range equals the raw log's count, and the devices (and
    /// the cohorts) add up to the whole.
    @Test func segmentsAndDayRangesEqualTheLogAndAddUpToTheWhole() throws {
        let today = Int64(Date().timeIntervalSince1970 * 1000) / Self.dayMs
        var random = SplitMix64(state: 99)
        var events: [Event] = []
        for index in 0..<1800 {
            let day = today - 3 + Int64(index / 600)
            let start = day * Self.dayMs + 3_600_000 + Int64(index % 600) * 60_000
            let group = Bool.random(using: &random) ? "a" : "b"
            let device = ["phone", "tablet", "desktop", nil].randomElement(using: &random)!
            let visitor = "seg-\(index)"
            var first: [String: String] = ["experiment.seg-test": group, "cohort": index % 3 == 0 ? "returning" : "new"]
            first["device"] = device
            let later: [String: String] = ["experiment.seg-test": group, "cohort": "returning", "device": "desktop"]
            events.append(Event(ms: start, name: "launch", visitor: visitor, properties: first))
            for step in 1..<Int.random(in: 1...5, using: &random) {
                let name = ["launch", "long_selected", "short_selected", "stream_selected", "error_shown"].randomElement(using: &random)!
                events.append(Event(ms: start + Int64(step) * 1000, name: name, visitor: visitor, properties: later))
            }
            if index % 4 == 0, day < today - 1 {
                events.append(Event(ms: start + Self.dayMs + 5000, name: "long_selected", visitor: visitor, properties: later))
            }
        }
        events.sort { $0.ms < $1.ms }
        try write(events)
        let server = try start(#"{"experiments": [{"name": "seg-test", "groups": [{"name": "a"}, {"name": "b"}]}]}"#)
        try eventually(timeout: 30) { (try? Self.json(server))?["experimentTallies"].flatMap { $0 as? [String: Any] }?["ready"] as? Bool == true }
        let whole = Self.sums(events, experiment: "seg-test")
        #expect(Self.groupSums(Self.visitors(try Self.json(server), "seg-test")) == whole)
        var devices: [String: [String: Int]] = [:], cohorts: [String: [String: Int]] = [:]
        for segment in ["phone", "tablet", "desktop", "unknown-device", "new", "returning", "unknown-cohort"] {
            let json = try Self.json(server, "?segment=\(segment)")
            let found = Self.groupSums(Self.visitors(json, "seg-test"))
            #expect(found == Self.sums(events, experiment: "seg-test", segment: segment), "\(segment)")
            #expect((json["experimentTallies"] as? [String: Any])?["segment"] as? String == segment)
            for (group, sums) in found {
                for (key, value) in sums {
                    if segment.hasSuffix("device") || ["phone", "tablet", "desktop"].contains(segment) {
                        devices[group, default: [:]][key, default: 0] += value
                    } else {
                        cohorts[group, default: [:]][key, default: 0] += value
                    }
                }
            }
        }
        #expect(devices == whole && cohorts == whole, "the segments add up to the whole")
        #expect(Self.sums(events, experiment: "seg-test", segment: "desktop")["a"]?["visitors"] ?? 0
                < whole["a"]!["visitors"]! / 2, "later events' device does not move visitors")
        // A day range: the visitors first exposed in it, with their events of later days too.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let middle = formatter.string(from: Date(timeIntervalSince1970: Double((today - 2) * Self.dayMs) / 1000))
        let ranged = Self.groupSums(Self.visitors(try Self.json(server, "?from=\(middle)&to=\(middle)"), "seg-test"))
        let expected = Self.sums(events, experiment: "seg-test", days: (today - 2)...(today - 2))
        #expect(ranged == expected && ranged != whole && (expected["a"]?["visitors"] ?? 0) > 200, "\(ranged) vs \(expected)")
        let rangedPhone = Self.groupSums(Self.visitors(try Self.json(server, "?from=\(middle)&segment=phone"), "seg-test"))
        #expect(rangedPhone == Self.sums(events, experiment: "seg-test", segment: "phone", days: (today - 2)...today))
        // The page: the filter, kept in the test links, and said in the heading.
        let page = try server.client.get("/reports/experiments?segment=tablet&from=\(middle)")
        #expect(page.status == 200 && page.text.contains(#"<option value="tablet" selected>"#)
                && page.text.contains("tablet, first exposed \(middle) to today UTC") && page.text.contains("segment=tablet"),
                "\(page.text)")
        // "All time" clears the days, not the visitors chosen.
        let allTimeKeepsTheSegment = page.text.contains(#"href="/reports/experiments?segment=tablet">All time</a>"#)
        #expect(allTimeKeepsTheSegment)
        let wrong = try server.client.get("/reports/experiments?segment=fridge")
        #expect(wrong.status == 400 && wrong.text.contains("must be one of: all, phone"))
        #expect(try server.client.get("/reports.json?segment=fridge").status == 400)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    /// A `from` with a time (a link "since the change") is shown with its time, in a field that
    /// sends it back as the same instant: "Show" keeps the range instead of widening it to the day.
    @Test func aRangeBoundWithATimeKeepsItsTimeInTheForm() throws {
        let server = try start(#"{"experiments": [{"name": "e", "groups": [{"name": "a"}, {"name": "b"}]}]}"#)
        func fields(_ query: String) throws -> [String: HTMLElement] {
            let page = try server.client.get("/reports/experiments" + query)
            #expect(page.status == 200, "\(query): \(page.text)")
            let form = try #require(try HTMLDocument.parse(page.text).first { $0.tag == "form" && $0["action"] == "/reports/experiments" })
            return Dictionary(form.all("input").compactMap { input in input["name"].map { ($0, input) } }) { first, _ in first }
        }
        let linked = try fields("?from=2026-11-29T14:05:00Z&to=2026-11-30")
        #expect(linked["from"]?["type"] == "datetime-local" && linked["from"]?["value"] == "2026-11-29T14:05:00"
                && linked["from"]?["step"] == "1", "\(String(describing: linked["from"]))")
        #expect(linked["to"]?["type"] == "date" && linked["to"]?["value"] == "2026-11-30", "a day stays a day")
        // What Chromium sends for that field, seconds dropped when zero, is the same instant.
        #expect(try fields("?from=2026-11-29T14:05&to=2026-11-30")["from"]?["value"] == "2026-11-29T14:05:00")
        let milliseconds = try fields("?from=2026-11-29T14:05:00.5")["from"]
        #expect(milliseconds?["value"] == "2026-11-29T14:05:00.500" && milliseconds?["step"] == "0.001")
        #expect(try fields("?from=2026-11-29")["from"]?["type"] == "date")
        #expect(try server.client.get("/reports/experiments?from=2026-11-29T14:05:00.5000").status == 400)
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    /// `harm-test`'s group b shows an error page to 30% of its visitors against 2% in a: beyond
    /// its 2-point margin, so the page warns; `calm-test`'s groups both at 2% do not.
    @Test func aGuardrailBreachWarnsAndNoBreachDoesNot() throws {
        let today = Int64(Date().timeIntervalSince1970 * 1000) / Self.dayMs
        var events: [Event] = []
        var ms = (today - 1) * Self.dayMs
        for (experiment, bErrors) in [("harm-test", 30), ("calm-test", 2)] {
            for index in 0..<800 {
                let group = index % 2 == 0 ? "a" : "b"
                let visitor = "\(experiment)-\(index)"
                let properties = ["experiment.\(experiment)": group]
                ms += 1000
                events.append(Event(ms: ms, name: "launch", visitor: visitor, properties: properties))
                if index % 3 == 0 { events.append(Event(ms: ms + 1, name: "long_selected", visitor: visitor, properties: properties)) }
                let erring = (index / 2) % 100 < (group == "a" ? 2 : bErrors)
                if erring { events.append(Event(ms: ms + 2, name: "error_shown", visitor: visitor, properties: properties + ["status": "500"])) }
            }
        }
        try write(events)
        let server = try start(#"""
            {"experiments": [
              {"name": "harm-test", "groups": [{"name": "a"}, {"name": "b"}], "guardrail": {"errors": 0.02}},
              {"name": "calm-test", "active": false, "groups": [{"name": "a"}, {"name": "b"}]}]}
            """#)
        try eventually(timeout: 30) { Self.visitors((try? Self.json(server)) ?? [:], "harm-test") != nil }
        let json = try Self.json(server)
        let harm = Self.visitors(json, "harm-test"), calm = Self.visitors(json, "calm-test")
        #expect(harm?["guardrailWarning"] as? Bool == true && calm?["guardrailWarning"] as? Bool == false)
        let rails = harm?["guardrails"] as? [[String: Any]] ?? []
        let errors = rails.first { $0["metric"] as? String == "errors" }
        #expect(errors?["state"] as? String == "breached" && errors?["margin"] as? Double == 0.02, "\(rails)")
        #expect(rails.first { $0["metric"] as? String == "noSelection" }?["state"] as? String != "breached")
        let calmRails = calm?["guardrails"] as? [[String: Any]] ?? []
        #expect(calmRails.count == 2 && calmRails.allSatisfy { $0["state"] as? String != "breached" }, "\(calmRails)")
        #expect(Self.groupSums(harm)["b"]?["erroring"] == 120 && Self.groupSums(harm)["a"]?["erroring"] == 8)
        let sections = try server.client.get("/reports/experiments").text.components(separatedBy: "<section")
        let harmSection = sections.first { $0.contains(#"data-experiment="harm-test""#) } ?? ""
        let calmSection = sections.first { $0.contains(#"data-experiment="calm-test""#) } ?? ""
        #expect(harmSection.contains("data-guardrail-breached") && harmSection.contains(#"data-state="breached""#)
                && harmSection.contains("Guardrail breached"))
        #expect(!calmSection.contains("data-guardrail-breached") && calmSection.contains(#"data-guardrail="errors""#))
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    /// An error page a known visitor is shown is written as `error_shown` with the status and their
    /// group; a missing asset and a visitor the server never met are not.
    @Test func anErrorPageLeavesATraceOfTheVisitor() throws {
        let server = try start(#"{"experiments": [{"name": "trace-test", "groups": [{"name": "a"}, {"name": "b"}]}]}"#)
        let browser = Browser(port: server.port)
        #expect(try browser.get("/").status == 200)
        #expect(try browser.get("/no-such-page").status == 404)
        #expect(try browser.get("/?layout=carousel").status == 400)
        #expect(try browser.get("/assets/no-such.css").status == 404)
        #expect(try server.client.get("/another-missing-page").status == 404)
        var lines: [[String: Any]] = []
        try eventually(timeout: 15) {
            let text = (try? ReportSegments.text(of: logPath)) ?? ""
            lines = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["event"] as? String == "error_shown" }
            return lines.count >= 2
        }
        let visitor = lines.first?["visitor"] as? String
        let properties = lines.compactMap { $0["properties"] as? [String: String] }
        #expect(lines.count == 2 && lines.allSatisfy { $0["visitor"] as? String == visitor && visitor != nil })
        #expect(properties.map { $0["status"] } == ["404", "400"] && properties.allSatisfy { $0["experiment.trace-test"] != nil },
                "\(lines)")
        server.signal(SIGTERM)
        #expect(server.waitForExit() == 0)
    }

    /// A log of 600,000 events whose tallies are missing: the server answers the home page at
    /// once, while the experiments page and `/reports.json` say the visitors are being counted, and
    /// then the exact figures.
    @Test func aLargeTallyRebuildDoesNotHoldUpTheStart() throws {
        let today = Int64(Date().timeIntervalSince1970 * 1000) / Self.dayMs
        try FileManager.default.createDirectory(atPath: logPath, withIntermediateDirectories: true)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let day = formatter.string(from: Date(timeIntervalSince1970: Double((today - 1) * Self.dayMs) / 1000))
        var bytes: [UInt8] = []
        let count = 600_000
        bytes.reserveCapacity(count * 110)
        for index in 0..<count {
            let second = index / 1000, milli = index % 1000
            let time = day + "T01:" + String(format: "%02d:%02d.%03dZ", second / 60, second % 60, milli)
            bytes += Array(#"{"timestamp":"\#(time)","event":"launch","visitor":"v\#(index / 2)","properties":{"experiment.big":"\#(index / 2 % 2 == 0 ? "a" : "b")"}}"#.utf8)
            bytes.append(10)
        }
        let file = folder.path("big.jsonl")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let toggles = #"{"experiments": [{"name": "big", "groups": [{"name": "a"}, {"name": "b"}]}]}"#
        // The import counts the log (rollups and tallies), as a server that wrote it would have;
        // the tallies are then taken away.
        let imported = try ServerProcess(arguments: ["reports", "import", file, "--report-log", logPath], waitForListening: false)
        #expect(imported.waitForExit(timeout: 300) == 0)
        try FileManager.default.removeItem(atPath: logPath + "/experiments")
        let server = try start(toggles)
        #expect(try server.client.get("/").status == 200)
        let page = try server.client.get("/reports/experiments")
        #expect(page.status == 200 && page.text.contains("data-counting") && page.text.contains("Counting visitors"))
        let counting = try Self.json(server)["experimentTallies"] as? [String: Any]
        #expect(counting?["ready"] as? Bool == false && counting?["progress"] is Double, "\(String(describing: counting))")
        try eventually(timeout: 120) { Self.visitors((try? Self.json(server)) ?? [:], "big") != nil }
        let sums = Self.groupSums(Self.visitors(try Self.json(server), "big"))
        // The log's visitors, and the one whose home page was served while counting.
        let visitors = sums.values.map { $0["visitors"] ?? 0 }, views = sums.values.map { $0["views"] ?? 0 }
        #expect(visitors.reduce(0, +) == count / 2 + 1 && views.reduce(0, +) == count + 1
                && visitors.allSatisfy { $0 == count / 4 || $0 == count / 4 + 1 }, "\(sums)")
        #expect(!(try server.client.get("/reports/experiments").text.contains("data-counting")))
        server.signal(SIGTERM)
        #expect(server.waitForExit(timeout: 60) == 0)
    }
}

private func + (lhs: [String: String], rhs: [String: String]) -> [String: String] { lhs.merging(rhs) { _, new in new } }

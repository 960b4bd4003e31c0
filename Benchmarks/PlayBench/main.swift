// Trending now and Because you watched at scale (see docs/performance.md, "Play statistics").
//   play-bench [events] [--share=0.08] [--visitors=1000000] [--titles=200] [--log=events]
// Thirty days of `events` report events of which `share` are play_started (the others are never
// decoded by the rebuild), by `visitors` visitors over `titles` titles (a few popular, and
// visitors coming back to their own titles), in log order: the counts fed every start (the
// rebuild's counting), then the recompute the task runs once a minute, and again with a day
// leaving the window. With --log, that many events (the same share) are written through the
// report log and read back as the rebuild reads them, for the read's rate. Run by hand.
import Foundation
import HomeApp
import Logging
import Reporting

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

func option(_ name: String) -> String? {
    CommandLine.arguments.first { $0.hasPrefix("--\(name)=") }.map { String($0.dropFirst(name.count + 3)) }
}

func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func memory() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    return status.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("RssAnon") }
        .map { $0.split(whereSeparator: \.isWhitespace).dropFirst().joined(separator: " ") }.joined(separator: "; ")
}

func timed<T>(_ body: () -> T) -> (T, wall: Double, cpu: Double) {
    let wall = ContinuousClock.now, cpu = threadCPU()
    let result = body()
    let elapsed = ContinuousClock.now - wall
    return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, threadCPU() - cpu)
}

let events = CommandLine.arguments.dropFirst().compactMap { Int($0) }.first ?? 100_000_000
let share = option("share").flatMap(Double.init) ?? 0.08
let visitorCount = option("visitors").flatMap(Int.init) ?? 1_000_000
let titleCount = option("titles").flatMap(Int.init) ?? 200
let logEvents = option("log").flatMap(Int.init)
let now = Date()
let window = 30 * 86_400.0
let visitors = (0..<visitorCount).map { String(format: "%016llx%016llx", UInt64($0) &* 0x9E37_79B9_7F4A_7C15, UInt64($0)) }
let titles = (0..<titleCount).map { String(format: "m-%03d", $0) }

/// Start `index` of `total`, spread evenly over the window: a popular title (squared draw) or,
/// four times in ten, one of the visitor's own four.
struct Starts: Sequence, IteratorProtocol {
    let total: Int
    var index = 0
    var random: UInt64 = 0x1234_5678

    mutating func next() -> PlayStatistics.Start? {
        guard index < total else { return nil }
        defer { index += 1 }
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let visitor = Int((random >> 20) % UInt64(visitorCount))
        let draw = Double((random >> 11) & 0xFFFF) / 65_536
        let title = (random >> 40) % 10 < 4 ? (visitor &* 31 + Int((random >> 50) & 3)) % titleCount : Int(draw * draw * Double(titleCount))
        let time = now.addingTimeInterval(-window + window * Double(index) / Double(total))
        return PlayStatistics.Start(time: time, visitor: visitors[visitor], item: titles[title])
    }
}

let starts = Int(Double(events) * share)
say("play-bench: \(events) events, \(starts) play_started (\(share)), \(visitorCount) visitors, \(titleCount) titles, 30 days")
// The ids alone (a million strings the bench keeps), so that the counts' share is the difference.
say("before counting: memory \(memory())")
var counts = PlayCounts()
counts.advance(to: now)
let (_, feedWall, feedCPU) = timed { for start in Starts(total: starts) { counts.add(start) } }
say(String(format: "counting every start (the rebuild's share besides reading): %.1f s wall, %.1f s CPU, %.2f µs a start",
           feedWall, feedCPU, feedCPU / Double(starts) * 1e6))
say("counted: \(counts.added) starts, \(counts.visitorCount) visitors; memory \(memory())")
for round in 1...3 {
    let (statistics, wall, cpu) = timed { () -> PlayStatistics in
        counts.advance(to: now)
        return counts.statistics(now: now, version: round)
    }
    say(String(format: "recompute %d (nothing leaves): %.3f s wall, %.3f s CPU; trending %@…, related lists %d",
               round, wall, cpu, statistics.trending.prefix(3).joined(separator: ","), statistics.related.count))
}
let tomorrow = now.addingTimeInterval(86_400)
let (_, dayWall, dayCPU) = timed { () -> PlayStatistics in
    counts.advance(to: tomorrow)
    return counts.statistics(now: tomorrow, version: 9)
}
say(String(format: "recompute with a day leaving the window: %.3f s wall, %.3f s CPU; %d visitors left", dayWall, dayCPU, counts.visitorCount))
say("memory after: \(memory())")

if let logEvents {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-bench-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let log = try ReportLog(configuration: ReportLog.Configuration(directory: folder))
    let every = max(1, Int((1 / share).rounded()))
    var generated = Starts(total: logEvents / every)
    let began = ContinuousClock.now
    for index in 0..<logEvents {
        if index % every == 0, let start = generated.next() {
            log.record(ReportEvent(.playStarted, timestamp: start.time, item: start.item, visitor: start.visitor,
                                   properties: ["duration": "5400"]))
        } else {
            let time = now.addingTimeInterval(-window + window * Double(index) / Double(logEvents))
            log.record(ReportEvent(index % 3 == 0 ? .launch : .longSelected, timestamp: time, layout: "grid",
                                   item: index % 3 == 0 ? nil : titles[index % titleCount], visitor: visitors[index % visitorCount]))
        }
        if index % 50_000 == 0 { while log.status.pending > 50_000 { usleep(1000) } }
    }
    log.shutdown()
    say("log: \(log.status.written) lines written, \(log.status.dropped) dropped, in \(ContinuousClock.now - began)")
    let reopened = try ReportLog(configuration: ReportLog.Configuration(directory: folder))
    let reader = ViewingEvents(store: reopened.store, database: nil, logger: Logger(label: "play-bench"))
    var rebuilt = PlayCounts()
    rebuilt.advance(to: now)
    let (_, readWall, readCPU) = timed {
        reader.forEach([.playStarted], since: now.addingTimeInterval(-window - 86_400), until: now.addingTimeInterval(1)) { event in
            if let visitor = event.visitor, let item = event.item {
                rebuilt.add(PlayStatistics.Start(time: event.timestamp, visitor: visitor, item: item))
            }
            return true
        }
    }
    reopened.shutdown()
    say(String(format: "rebuild from the log (read, sniff, decode the starts, count): %d starts of %d lines in %.1f s wall, %.1f s CPU: %.0f lines/s of CPU",
               rebuilt.added, logEvents, readWall, readCPU, Double(logEvents) / readCPU))
}

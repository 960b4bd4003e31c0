// The report store's figures (see docs/performance.md, "Report store").
//   report-bench writer [events]        events/s through ReportLog from 2 threads, rollups kept
//   report-bench writer-simple [events] the same with the single-file writer's old event shape
//   report-bench day [events] [--keep]  a day's log in today's single-file format: import, then query timings
//   report-bench generate FILE [events] [--start=ISO]  only write that day's single-file log (for scripts/report-pages-bench)
//   report-bench generate-days FILE [events a day] [--days=10] [--visitors=N] [--start=ISO]
//                                       days of visitors who come back every day (for scripts/report-pages-bench)
//   report-bench tally [visitors]       that many visitors in an experiment: the exact sums' read time and memory
// Events: 8 names, 2 layouts, 200 items, 50,000 visitors in sessions, a third tagged experiment.hero.
import Foundation
import Reporting

/// Prints a line at once (stdout is a pipe or file when run in the background).
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first ?? "writer"
let count = arguments.dropFirst().compactMap { Int($0) }.first

func seconds(_ from: DispatchTime, _ to: DispatchTime = .now()) -> Double {
    Double(to.uptimeNanoseconds - from.uptimeNanoseconds) / 1e9
}

/// CPU seconds used by this process, or by the calling thread.
func cpuSeconds(thread: Bool = false) -> Double {
    var time = timespec()
    clock_gettime(thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

final class Total: @unchecked Sendable {
    let lock = NSLock()
    var value = 0.0
    func add(_ amount: Double) { lock.lock(); value += amount; lock.unlock() }
}

func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("report-bench-\(getpid())-\(name)").path
}

let layouts = ["list", "grid"]
let names: [ReportEvent.Name] = [.launch, .longSelected, .launch, .shortSelected, .horizontalSwipe, .streamSelected, .launch, .settingsSelected]
let items = (0..<200).map { "item-\($0)" }
let visitors = (0..<50_000).map { _ in UUID().uuidString.lowercased() }

/// Visitors come in sessions: each quarter-million events draw on 2,000 of the 50,000.
func visitorIndex(_ index: Int) -> Int { ((index / 250_000) * 2000 + (index * 7919) % 2000) % visitors.count }

/// Event `index` of `total` spread over one day: two lines per home view, experiment tags on a third.
func makeEvent(_ index: Int, total: Int, start: Int64) -> ReportEvent {
    let ms = start + Int64(Double(index) / Double(total) * 86_400_000)
    let name = names[index & 7]
    var properties: [String: String] = [:]
    if index % 3 == 0 { properties["experiment.hero"] = index % 2 == 0 ? "control" : "big" }
    return ReportEvent(
        name, timestamp: Date(timeIntervalSince1970: Double(ms) / 1000), layout: layouts[(index >> 3) & 1],
        item: name == .launch ? nil : items[index % items.count], visitor: visitors[visitorIndex(index)],
        request: "req-\(index)", properties: properties)
}

switch mode {
case "writer", "writer-simple":
    let total = count ?? 4_000_000
    let directory = temporary("writer")
    var configuration = ReportLog.Configuration(directory: directory, bufferCapacity: total)
    configuration.compress = false  // compression is a background thread's; this measures the writer
    let log = try ReportLog(configuration: configuration)
    // The events are made first: what the callers' handlers cost to build them is theirs.
    let base = ReportTimestamp.milliseconds(Date())
    // "writer-simple": the shape the single-file writer was measured with (no properties, 5,000
    // short visitor ids), for a side-by-side figure.
    let names4: [ReportEvent.Name] = [.launch, .longSelected, .horizontalSwipe, .streamSelected]
    let batches = (0..<2).map { thread in
        stride(from: thread, to: total, by: 2).map { index in
            mode == "writer" ? makeEvent(index, total: total * 100, start: base)
                : ReportEvent(names4[index & 3], layout: layouts[index & 1], item: "m-\(index % 60)", visitor: "v\(index % 5000)",
                              request: "req-\(thread)-\(index)")
        }
    }
    let start = DispatchTime.now()
    let cpuStart = cpuSeconds()
    let producers = Total()
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
        let begin = cpuSeconds(thread: true)
        for event in batches[thread] { log.record(event) }
        producers.add(cpuSeconds(thread: true) - begin)
    }
    let recorded = seconds(start)
    log.shutdown()
    let elapsed = seconds(start)
    // On a shared machine wall time says more about the neighbours than the writer: its CPU time
    // (the process's, less the recording threads') is the steadier figure.
    let writerCPU = cpuSeconds() - cpuStart - producers.value
    say("writer: \(Int(Double(total) / writerCPU)) events per CPU second of the writer (\(String(format: "%.2f", writerCPU)) s CPU)")
    let status = log.status
    say("writer: \(total) events from 2 threads; record() \(Int(Double(total) / recorded))/s; written \(status.written), dropped \(status.dropped)")
    say("writer: \(Int(Double(status.written) / elapsed)) events/s to segments with rollups (\(String(format: "%.2f", elapsed)) s incl. final flush)")
    say("writer: \(log.store.segmentFiles.count) segments, summary total \(log.store.summary().total)")
    try? FileManager.default.removeItem(atPath: directory)
    exit(status.written == total ? 0 : 1)

case "day", "generate":
    let total = count ?? 10_000_000
    let file = mode == "generate" ? (arguments.dropFirst().first { Int($0) == nil && !$0.hasPrefix("--") } ?? temporary("day.jsonl")) : temporary("day.jsonl")
    let directory = temporary("store")
    // `--start=ISO` (generate): the day's first instant, so that a day ending now gives `last=hour` events.
    let startText = arguments.first { $0.hasPrefix("--start=") }.map { String($0.dropFirst(8)) } ?? "2026-11-21T00:00:00Z"
    guard let startDate = ReportTimestamp.parse(startText) else { say("--start: not an ISO 8601 UTC time: \(startText)"); exit(2) }
    let start = ReportTimestamp.milliseconds(startDate)
    // The single file, written as today's log writes it.
    var generated = DispatchTime.now()
    let handle = FileHandle(forWritingAtPath: file) ?? {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        return FileHandle(forWritingAtPath: file)!
    }()
    var buffer: [UInt8] = []
    buffer.reserveCapacity(8 << 20)
    for index in 0..<total {
        makeEvent(index, total: total, start: start).appendJSONLine(to: &buffer)
        if buffer.count > 8 << 20 {
            handle.write(Data(buffer))
            buffer.removeAll(keepingCapacity: true)
        }
    }
    handle.write(Data(buffer))
    try handle.close()
    let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
    say("day: generated \(total) events, \(size >> 20) MiB in \(String(format: "%.1f", seconds(generated))) s")
    if mode == "generate" { exit(0) }
    generated = .now()
    let importCPU = cpuSeconds()
    let result = try ReportImport.run(files: [file], directory: directory, compress: true)
    say("import: \(result); \(Int(Double(total) / (cpuSeconds() - importCPU))) events per CPU second (parse, encode, rollups, gzip)")
    let onDisk = try FileManager.default.contentsOfDirectory(atPath: directory).reduce(0) { total, name in
        total + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0)
    }
    say("import: store on disk \(onDisk >> 20) MiB (compressed segments and rollups)")
    let opened = DispatchTime.now()
    let store = try ReportStore(directory: directory)
    say("open: \(store.segmentFiles.count) segments, rollups loaded in \(String(format: "%.3f", seconds(opened))) s")
    func residentMiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }
    say("open: RSS \(residentMiB()) MiB with every rollup in memory")

    func time(_ label: String, runs: Int = 30, _ body: () -> Int) {
        var samples: [Double] = []
        var answer = 0
        for _ in 0..<runs {
            let begin = DispatchTime.now()
            answer = body()
            samples.append(seconds(begin) * 1000)
        }
        samples.sort()
        let p50 = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
        say(String(format: "query: %-44@ p50 %8.2f ms  p99 %8.2f ms  (answer %d)", label as NSString, p50, p99, answer))
    }
    let end = start + 86_400_000
    let lastHour = ReportRange(from: ReportTimestamp.date(milliseconds: end - 3_600_000), to: nil)
    let visitor = visitors[visitorIndex(total / 2)]
    time("summary, everything") { store.summary().total }
    time("summary, last hour") { store.summary(lastHour).total }
    time("summary, event=long_selected") { store.summary(filter: ReportFilter(event: "long_selected")).total }
    time("summary, layout=grid") { store.summary(filter: ReportFilter(layout: "grid")).total }
    time("summary, item=item-7") { store.summary(filter: ReportFilter(item: "item-7")).total }
    time("summary, visitor (reads the events)", runs: 3) { store.summary(filter: ReportFilter(visitor: visitor)).total }
    time("events, newest 50") { store.events(limit: 50).events.count }
    time("events, event=long_selected, 50") { store.events(matching: ReportFilter(event: "long_selected"), limit: 50).events.count }
    time("events, visitor, one page (budget 16 MiB)") { store.events(matching: ReportFilter(visitor: visitor), limit: 50).events.count }
    time("experiments, everything") { store.experiments().count }
    time("lines since the last minute") {
        store.lines(since: ReportTimestamp.date(milliseconds: end - 60_000)).reduce(0) { $0 + $1.count }
    }
    say("queries: RSS \(residentMiB()) MiB")
    if !arguments.contains("--keep") {
        try? FileManager.default.removeItem(atPath: file)
        try? FileManager.default.removeItem(atPath: directory)
    }

case "generate-days":
    // Every visitor comes back every day: each day's events are 64 sessions at a time, 6 events a
    // session, each session a visitor drawn afresh, so a visitor's events spread over every day.
    let perDay = count ?? 10_000_000
    guard let file = arguments.dropFirst().first(where: { Int($0) == nil && !$0.hasPrefix("--") }) else {
        say("usage: report-bench generate-days FILE [events a day] [--days=10] [--visitors=N] [--start=ISO]"); exit(2)
    }
    func option(_ name: String) -> String? { arguments.first { $0.hasPrefix("--\(name)=") }.map { String($0.dropFirst(name.count + 3)) } }
    let dayCount = option("days").flatMap { Int($0) } ?? 10
    let visitorCount = option("visitors").flatMap { Int($0) } ?? max(1000, perDay * 3 / 200)
    guard let startDate = ReportTimestamp.parse(option("start") ?? "2026-11-11T00:00:00Z") else { say("--start: not an ISO 8601 UTC time"); exit(2) }
    let start = ReportTimestamp.milliseconds(startDate)
    var random = SystemRandomNumberGenerator()
    let ids = (0..<visitorCount).map { _ in String(format: "%016llx%016llx", random.next() as UInt64, random.next() as UInt64) }
    let generated = DispatchTime.now()
    let handle = FileHandle(forWritingAtPath: file) ?? {
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        return FileHandle(forWritingAtPath: file)!
    }()
    var buffer: [UInt8] = []
    buffer.reserveCapacity(8 << 20)
    let rows = ["a", "b", "c"]
    for day in 0..<dayCount {
        let dayStart = start + Int64(day) * 86_400_000
        for index in 0..<perDay {
            let session = (index / 64 / 6) * 64 + index % 64
            var mixed = UInt64(day) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(session) &* 0xC2B2_AE3D_27D4_EB4F
            mixed ^= mixed >> 31
            let visitor = ids[Int(mixed % UInt64(visitorCount))]
            let name = names[index & 7]
            var properties: [String: String] = [:]
            if index % 3 == 0 { properties["experiment.hero"] = index % 2 == 0 ? "control" : "big" }
            if index % 5 == 0 { properties["experiment.rows"] = rows[index / 5 % 3] }
            let ms = dayStart + Int64(Double(index) / Double(perDay) * 86_400_000)
            ReportEvent(name, timestamp: Date(timeIntervalSince1970: Double(ms) / 1000), layout: layouts[(index >> 3) & 1],
                        item: name == .launch ? nil : items[index % items.count], visitor: visitor, request: "req-\(day)-\(index)",
                        properties: properties).appendJSONLine(to: &buffer)
            if buffer.count > 8 << 20 {
                handle.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }
    handle.write(Data(buffer))
    try handle.close()
    let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
    say("days: generated \(dayCount) days of \(perDay) events, \(visitorCount) visitors, \(size >> 20) MiB in \(String(format: "%.1f", seconds(generated))) s")

case "tally":
    // N new visitors, each a home view tagged with a 50/50 experiment and every third a selection,
    // written through a ReportLog (events made as they go: a producer, the writer); then the exact
    // visitor sums as the experiments page reads them, and the process's memory.
    let total = count ?? 10_000_000
    let directory = temporary("tally")
    var configuration = ReportLog.Configuration(directory: directory, bufferCapacity: 1 << 16)
    configuration.compress = false
    configuration.maxBytes = nil
    let log = try ReportLog(configuration: configuration)
    let start = DispatchTime.now()
    var recorded = 0
    for index in 0..<total {
        // One producer outruns the writer: keep within the channel's capacity rather than drop.
        if index % 10_000 == 0 { while log.status.written + 40_000 < recorded { usleep(500) } }
        recorded += index % 3 == 0 ? 2 : 1
        let visitor = String(UInt64(index) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
        let group = index % 2 == 0 ? "a" : "b"
        log.record(ReportEvent(.launch, layout: "list", visitor: visitor, properties: ["experiment.hero": group]))
        if index % 3 == 0 {
            log.record(ReportEvent(.longSelected, layout: "list", item: "m-1", visitor: visitor, properties: ["experiment.hero": group]))
        }
    }
    log.shutdown()
    say("tally: \(total) visitors written in \(String(format: "%.1f", seconds(start))) s; written \(log.status.written), dropped \(log.status.dropped)")
    let reopened = try ReportLog(configuration: configuration)
    var samples: [Double] = []
    var visitors = 0
    for _ in 0..<30 {
        let begin = DispatchTime.now()
        visitors = reopened.store.experimentVisitors()?["hero"]?.groups.reduce(0) { $0 + $1.sums.visitors } ?? -1
        samples.append(seconds(begin) * 1000)
    }
    samples.sort()
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let rss = status.split(separator: "\n").filter { $0.hasPrefix("VmRSS:") || $0.hasPrefix("VmHWM:") || $0.hasPrefix("RssAnon:") || $0.hasPrefix("RssFile:") }
    let tallyBytes = (try? FileManager.default.attributesOfItem(atPath: directory + "/experiments/hero.tally")[.size] as? Int) ?? 0
    say("tally: \(visitors) visitors counted; sums read in p50 \(String(format: "%.4f", samples[15])) ms, p99 \(String(format: "%.4f", samples[29])) ms")
    say("tally: file \(tallyBytes >> 20) MiB; \(rss.joined(separator: ", "))")
    reopened.shutdown()
    // The tallies rebuilt from the log, as at a start that finds them missing.
    try? FileManager.default.removeItem(atPath: directory + "/experiments")
    let rebuilding = DispatchTime.now()
    let rebuilt = try ReportLog(configuration: configuration)
    let again = rebuilt.store.experimentVisitors()?["hero"]?.groups.reduce(0) { $0 + $1.sums.visitors } ?? -1
    say("tally: rebuilt from the log at start in \(String(format: "%.1f", seconds(rebuilding))) s, \(again) visitors")
    rebuilt.shutdown()
    try? FileManager.default.removeItem(atPath: directory)

default:
    say("usage: report-bench writer [events] | day [events] [--keep] | generate FILE [events] [--start=ISO] | tally [visitors]")
    exit(2)
}

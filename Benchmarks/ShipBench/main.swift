// The shipper's throughput into PostgreSQL: writes N report events into segments in a fresh
// directory, then times a ReportShipper from start until the database holds them all.
// Every batch names the same 50,000 visitors (each batch changes every stored visitor's row, the
// worst case for the visitor rows), or with `new` a visitor per event.
// Usage: ship-bench <postgres URL> [events] [batch lines] [new]   (scripts/bench-beyond runs it)
// FOLD_INTERVAL (seconds) and FOLD_BATCHES set the fold's pace, to tell its cost from the shipping's.
import Foundation
import Logging
import ReportDatabase
import Reporting

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ship-bench <postgres URL> [events] [batch lines] [new]\n".utf8))
    exit(2)
}
let url = arguments[1]
let total = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let batch = arguments.count > 3 ? Int(arguments[3]) ?? 50_000 : 50_000
let visitors = arguments.count > 4 && arguments[4] == "new" ? Int.max : 50_000
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ship-bench-\(UUID().uuidString)").path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }

// Segments of 250,000 events spread over the day before now, shaped like the home's: launch and
// selections with a visitor, a request id and an experiment property.
let start = Date().addingTimeInterval(-86_400)
let names: [ReportEvent.Name] = [.launch, .launch, .longSelected, .shortSelected, .horizontalSwipe]
var written = 0
var segment = 0
while written < total {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64 << 20)
    let count = min(250_000, total - written)
    for index in written..<(written + count) {
        ReportEvent(names[index % names.count], timestamp: start.addingTimeInterval(Double(index) * 86_400 / Double(total)),
                    layout: index % 2 == 0 ? "grid" : "list", item: "item-\(index % 40)",
                    visitor: String(format: "%016llx", UInt64(index % visitors) &* 0x9E3779B97F4A7C15),
                    request: "req-\(index)", properties: ["experiment.hero": index % 2 == 0 ? "a" : "b"])
            .appendJSONLine(to: &bytes)
    }
    let name = String(format: "events-20261124T%06d.000Z.jsonl", segment)
    _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
    written += count
    segment += 1
}

var configuration = ShipperConfiguration(databaseURL: url, instance: "ship-bench-\(UUID().uuidString.prefix(8))",
                                         reportLog: directory)
configuration.batchLines = batch
configuration.pollInterval = 0.01
if let fold = ProcessInfo.processInfo.environment["FOLD_INTERVAL"].flatMap(Double.init) { configuration.foldInterval = fold }
if let most = ProcessInfo.processInfo.environment["FOLD_BATCHES"].flatMap(Int.init) { configuration.foldBatches = most }
let shipper = ReportShipper(configuration: configuration, logger: Logger(label: "ship-bench"))
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
let cpuBefore = cpuSeconds()
let began = Date()
try shipper.start()
while shipper.status.shippedEvents < total {
    if let error = shipper.status.lastError, shipper.status.errors > 20 {
        print("ship-bench: giving up: \(error)")
        exit(1)
    }
    Thread.sleep(forTimeInterval: 0.005)
}
let seconds = Date().timeIntervalSince(began)
let cpu = cpuSeconds() - cpuBefore
// Then until the visitor figures hold every shipped batch (each carries visitors; one instance folds).
while shipper.status.foldedBatches < shipper.status.batches {
    Thread.sleep(forTimeInterval: 0.005)
}
let folded = Date().timeIntervalSince(began)
shipper.shutdown()
// The shipper's own CPU (reading, parsing, COPY rows) apart from PostgreSQL's.
print(String(format: "shipped %d events in %.2f s: %.0f events/s (batches of %d); the shipper's CPU %.2f s, %.0f events per CPU second",
             total, seconds, Double(total) / seconds, batch, cpu, Double(total) / cpu))
print(String(format: "visitor figures folded up %.2f s after the start (%.2f s after the last batch), %d folds of %d batches",
             folded, folded - seconds, shipper.status.visitorFolds, shipper.status.foldedBatches))
// What /reports/experiments costs over the database now holding them: its query timed as the
// page runs it, the first run apart (cold), then 20 more.
let database = DatabaseReports(url: url)
func timed(_ body: () throws -> Void) rethrows -> Double {
    let began = ContinuousClock.now
    try body()
    let elapsed = (ContinuousClock.now - began).components
    return Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15
}
var groups = 0
let cold = try timed { groups = try database.experiments().reduce(0) { $0 + $1.groups.count } }
var warm = try (0..<20).map { _ in try timed { _ = try database.experiments() } }.sorted()
print(String(format: "/reports/experiments over the database (%d groups): first %.1f ms, then p50 %.1f ms, max of 20 %.1f ms",
             groups, cold, warm[warm.count / 2], warm[warm.count - 1]))

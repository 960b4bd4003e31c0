// Sustained ReportLog throughput: N events recorded from 2 threads into a temporary file,
// timed until shutdown() has written and fsynced the last one.
// Usage: report-bench [events] [--keep]
import Foundation
import Reporting

let arguments = CommandLine.arguments.dropFirst()
let total = arguments.compactMap { Int($0) }.first ?? 2_000_000
let threads = 2
let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-bench-\(getpid())").path
try? FileManager.default.removeItem(atPath: path)

// A buffer as large as the run, so the figure is the writer's sustained rate rather than drops.
let log = try ReportLog(configuration: .init(path: path, bufferCapacity: total))
let layouts = ["list", "grid"]
let names: [ReportEvent.Name] = [.launch, .longSelected, .horizontalSwipe, .streamSelected]
let start = DispatchTime.now()
DispatchQueue.concurrentPerform(iterations: threads) { thread in
    let visitor = UUID().uuidString
    for index in 0..<(total / threads) {
        log.record(ReportEvent(
            names[index & 3], layout: layouts[index & 1], item: "m-\(index % 60)", visitor: visitor,
            request: "req-\(thread)-\(index)"))
    }
}
let recorded = DispatchTime.now()
log.shutdown()
let end = DispatchTime.now()

func seconds(_ from: DispatchTime, _ to: DispatchTime) -> Double {
    Double(to.uptimeNanoseconds - from.uptimeNanoseconds) / 1e9
}
let status = log.status
let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
let elapsed = seconds(start, end)
print("events:           \(total) from \(threads) threads")
print("written:          \(status.written) lines, \(bytes / 1_048_576) MiB, dropped \(status.dropped)")
print("record() calls:   \(Int(Double(total) / seconds(start, recorded))) events/s")
print("sustained:        \(Int(Double(status.written) / elapsed)) events/s to the file (incl. final flush + fsync, \(String(format: "%.2f", elapsed)) s)")
// What a /reports page costs on this file: a full counting scan and a newest-first page.
let reader = ReportReader(path: path)
let scanStart = DispatchTime.now()
let summary = try reader.summary()
let scanned = DispatchTime.now()
let page = try reader.page(matching: ReportFilter(layout: "grid"), limit: 50)
let paged = DispatchTime.now()
print("reader summary:   \(summary.total) lines in \(String(format: "%.2f", seconds(scanStart, scanned))) s; newest page of \(page.events.count) in \(String(format: "%.4f", seconds(scanned, paged))) s")
if !arguments.contains("--keep") { try? FileManager.default.removeItem(atPath: path) }
exit(status.written == total && status.dropped == 0 ? 0 : 1)

// A process that writes a report directory for crash tests: records events from two threads
// forever and prints each event's id once the log says it is written, until it is killed.
// Usage: report-harness DIRECTORY SEGMENT-BYTES PREFIX
import Foundation
import Reporting

let arguments = CommandLine.arguments
guard arguments.count == 4, let segmentBytes = Int64(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: report-harness DIRECTORY SEGMENT-BYTES PREFIX\n".utf8))
    exit(2)
}
var configuration = ReportLog.Configuration(directory: arguments[1])
configuration.segmentBytes = segmentBytes
configuration.rollupInterval = 0.05
let log: ReportLog
do {
    log = try ReportLog(configuration: configuration)
} catch {
    FileHandle.standardError.write(Data("report-harness: \(error)\n".utf8))
    exit(1)
}
let prefix = arguments[3]
let layouts = ["list", "grid"]
DispatchQueue.concurrentPerform(iterations: 2) { thread in
    var index = 0
    while true {
        let id = "\(prefix)-\(thread)-\(index)"
        let properties = index % 3 == 0 ? ["experiment.hero": index % 2 == 0 ? "a" : "b"] : [:]
        log.record(ReportEvent(.launch, layout: layouts[index & 1], item: "m\(index % 7)", visitor: "v\(index % 50)", request: id,
                               properties: properties)) { written in
            guard written else { return }
            let line = Array((id + "\n").utf8)
            _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        }
        index += 1
        // Paced on purpose: a steady writer, so a kill lands mid-stream rather than on a full queue.
        if index % 64 == 0 { usleep(200) }
    }
}

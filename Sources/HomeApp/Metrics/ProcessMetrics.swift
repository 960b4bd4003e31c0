#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The standard `process_*` metrics, read from `/proc/self` at each scrape.
struct ProcessMetrics {
    var cpuSeconds = 0.0
    var residentBytes = 0
    var virtualBytes = 0
    var openFDs = 0
    var maxFDs = 0
    var startTime = 0.0
    var threads = 0

    static func read() -> ProcessMetrics {
        var metrics = ProcessMetrics()
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            // Fields after "(comm)": state is field 3, so index i here is field i + 3.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            func field(_ number: Int) -> Double { fields.count > number - 3 ? Double(fields[number - 3]) ?? 0 : 0 }
            metrics.cpuSeconds = (field(14) + field(15)) / ticks
            metrics.threads = Int(field(20))
            metrics.virtualBytes = Int(field(23))
            metrics.residentBytes = Int(field(24)) * page
            metrics.startTime = bootTime() + field(22) / ticks
        }
        metrics.openFDs = max(0, ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1)
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { metrics.maxFDs = Int(limit.rlim_cur) }
        return metrics
    }

    private static func bootTime() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6)) ?? 0
        }
        return 0
    }
}

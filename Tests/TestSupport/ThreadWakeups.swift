import Foundation

/// How often each thread of a process has gone to sleep and woken since it started: its
/// voluntary context switches, by thread name, from `/proc/<pid>/task`. Threads of one name are
/// summed (libmicrohttpd's workers share one).
public enum ThreadWakeups {
    public static func of(_ pid: Int32) -> [String: Int] {
        let tasks = "/proc/\(pid)/task"
        var counts: [String: Int] = [:]
        for task in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let status = try? String(contentsOfFile: "\(tasks)/\(task)/status", encoding: .utf8) else { continue }
            var name = task, switches = 0
            for line in status.split(separator: "\n") {
                if line.hasPrefix("Name:") { name = line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("voluntary_ctxt_switches:") {
                    switches = Int(line.dropFirst(24).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            counts[name, default: 0] += switches
        }
        return counts
    }

    /// The wake-ups of each thread between `before` and `after` (threads that appeared count from 0).
    public static func since(_ before: [String: Int], _ after: [String: Int]) -> [String: Int] {
        after.reduce(into: [:]) { $0[$1.key] = $1.value - (before[$1.key] ?? 0) }
    }
}

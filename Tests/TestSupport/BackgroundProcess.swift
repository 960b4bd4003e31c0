import Foundation

/// A tool left running (e.g. `curl -N` on a stream), its output (both streams) in a file; ended
/// with SIGKILL by `stop` or when released, once. SIGKILL: a child inherits the test process's
/// ignored signals, and SIGTERM may be one of them.
public final class BackgroundProcess {
    private var pid: pid_t?

    public init(_ executable: String, _ arguments: [String], log: String) throws {
        pid = try Subprocess.spawn(executable, arguments, log: log)
    }

    /// Whether it still runs (it has neither ended nor been stopped).
    public var isRunning: Bool {
        guard let pid else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 { return true }
        // Ended and reaped: its number may be anyone's now.
        self.pid = nil
        return false
    }

    /// Ends it and reaps it; nothing once done.
    public func stop() {
        guard let pid else { return }
        self.pid = nil
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    deinit { stop() }
}

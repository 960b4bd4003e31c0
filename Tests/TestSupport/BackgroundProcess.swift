import Foundation

/// A tool left running (e.g. `curl -N` on a stream), its output (both streams) in a file; ended
/// with SIGKILL by `stop` or when released, once. SIGKILL: a child inherits the test process's
/// ignored signals, and SIGTERM may be one of them.
public final class BackgroundProcess {
    private var pid: pid_t?

    public init(_ executable: String, _ arguments: [String], log: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        Subprocess.closeInherited(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Subprocess.Failure(description: "cannot run \(executable): \(spawned)") }
        self.pid = pid
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

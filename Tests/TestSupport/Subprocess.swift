import Foundation

/// Runs a short-lived tool to its end with `posix_spawn` and `waitpid`, its output in a file.
/// For tools that leave a daemon behind (`pg_ctl start`): Foundation's `Process` could miss the
/// tool's exit on Linux and wait forever.
public enum Subprocess {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// Runs `executable` with `arguments`; returns its exit status and what it printed.
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let output = try TemporaryDirectory("subprocess")
        defer { output.remove() }
        let log = output.path("out")
        let pid = try spawn(executable, arguments, log: log)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), text)
    }

    /// Starts `executable` with no input, both output streams into the file `log`, and no
    /// descriptor of the test process beyond the standard three.
    static func spawn(_ executable: String, _ arguments: [String], log: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        closeInherited(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(executable): \(spawned)") }
        return pid
    }

    /// Adds closing every descriptor above the standard three to `actions`: with many sockets open
    /// in tests that run meanwhile, PostgreSQL inherited so many that it refused to start. glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` is not imported into Swift: it is looked up.
    static func closeInherited(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}

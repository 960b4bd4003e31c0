import Foundation
import Testing
import TestSupport

/// A process that has ended but that nobody has reaped yet still tells its exit status.
@Suite struct UnreapedExitTests {
    /// Started with posix_spawn, outside Foundation, so nothing reaps it until the test does.
    func spawn(_ script: String) throws -> pid_t {
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", script]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0)
        return pid
    }

    @Test func anEndedProcessGivesItsExitCodeAndARunningOneNone() throws {
        let ended = try spawn("exit 3")
        try eventually("the child ended") { ServerProcess.unreapedExitStatus(ended) != nil }
        #expect(ServerProcess.unreapedExitStatus(ended) == 3)
        var status: Int32 = 0
        #expect(waitpid(ended, &status, 0) == ended)

        let running = try spawn("sleep 5")
        #expect(ServerProcess.unreapedExitStatus(running) == nil)
        kill(running, SIGTERM)
        try eventually("the child ended") { ServerProcess.unreapedExitStatus(running) != nil }
        #expect(ServerProcess.unreapedExitStatus(running) == SIGTERM)
        #expect(waitpid(running, &status, 0) == running)
    }
}

@testable import Basics
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import MicroHTTP

/// The work pool: bounded jobs at once, a bounded queue, 503 with Retry-After past both.
@Suite struct WorkPoolTests {
    /// Jobs wait here until the test opens it.
    final class Gate: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        let entered = Atomic<Int>(0)
        func pass() {
            entered.add(1, ordering: .relaxed)
            semaphore.wait()
        }
        func open(_ count: Int) { for _ in 0..<count { semaphore.signal() } }
        func waitForEntered(_ count: Int) throws {
            try eventually("\(count) jobs entered") { entered.load(ordering: .relaxed) >= count }
        }
    }

    @Test func runsAtMostItsWorkersAtOnceAndQueuesTheRest() throws {
        let pool = WorkPool(name: "test", workers: 2, queueLimit: 3)
        defer { pool.shutdown() }
        let gate = Gate()
        let done = Atomic<Int>(0)
        for _ in 0..<5 {
            #expect(pool.submit { gate.pass(); done.add(1, ordering: .relaxed) })
        }
        try gate.waitForEntered(2)
        #expect(pool.counts == WorkPool.Counts(running: 2, queued: 3, refused: 0))
        #expect(!pool.submit {})
        #expect(pool.counts.refused == 1)
        gate.open(5)
        try eventually("five jobs done") { done.load(ordering: .relaxed) == 5 }
        #expect(gate.entered.load(ordering: .relaxed) == 5)
        #expect(pool.submit {})
    }

    @Test func aFullPoolAnswers503WithRetryAfterAtOnce() throws {
        let pool = RequestPool(WorkPool(name: "reports", workers: 1, queueLimit: 1), retryAfter: 2,
                               busyMessage: "Busy with other work.")
        defer { pool.shutdown() }
        let gate = Gate()
        var router = Router()
        router.get("/slow") { _ in try pool.respond { gate.pass(); return .text("done") } }
        let server = try TestServer(router: router)
        let held = try (0..<2).map { _ in try HTTPConnection(port: server.port) }
        for connection in held { try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n") }
        try gate.waitForEntered(1)
        try eventually("a job queued") { pool.counts.queued >= 1 }
        let refused = try server.client.get("/slow")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "2")
        #expect(refused.text.contains("Busy with other work."), "in the words the app gave")
        gate.open(2)
        for connection in held { #expect(try connection.readResponse().text == "done") }
    }

    @Test func shutdownAnswersQueuedRequests() throws {
        let pool = RequestPool(WorkPool(name: "reports", workers: 1, queueLimit: 4), busyMessage: "Busy.")
        let gate = Gate()
        var router = Router()
        router.get("/slow") { _ in try pool.respond { gate.pass(); return .text("done") } }
        let server = try TestServer(router: router)
        let running = try HTTPConnection(port: server.port)
        try running.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        try gate.waitForEntered(1)
        let queued = try HTTPConnection(port: server.port)
        try queued.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        try eventually("a job queued") { pool.counts.queued >= 1 }
        // Shutdown answers the queued request at once, then waits for the running job.
        Thread { pool.shutdown() }.start()
        #expect(try queued.readResponse().status == 503)
        gate.open(1)
        #expect(try running.readResponse().text == "done")
        #expect(!pool.pool.submit {})
    }

    @Test func workersRunAtTheirNiceValueAndLeaveTheRestOfTheProcessAlone() {
        func niceness(of pool: WorkPool) -> Int32? {
            let seen = Mutex<Int32?>(nil)
            let done = DispatchSemaphore(value: 0)
            #expect(pool.submit {
                seen.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
                done.signal()
            })
            _ = done.wait(timeout: .now() + 10)
            return seen.withLock { $0 }
        }
        let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let background = WorkPool(name: "nice", workers: 1, queueLimit: 1, niceness: 10)
        defer { background.shutdown() }
        let plain = WorkPool(name: "plain", workers: 1, queueLimit: 1)
        defer { plain.shutdown() }
        #expect(niceness(of: background) == min(19, own + 10))
        #expect(niceness(of: plain) == own)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == own, "the calling thread keeps its own")
    }
}

import Basics
import Synchronization
import Testing
import TestSupport

/// A startable's own thread: woken by a ring, stopped and joined by `stop()`.
@Suite struct BackgroundThreadTests {
    private final class Seen: Sendable {
        let rounds = Atomic(0)
        let ended = Atomic(false)
    }

    @Test func aRingWakesTheBodyAndStopEndsItBeforeReturning() throws {
        let thread = BackgroundThread(name: "test-thread")
        let seen = Seen()
        try thread.start {
            // An hour's wait: only the ring and the stop can end each one within the test.
            while !thread.isStopping {
                seen.rounds.wrappingAdd(1, ordering: .relaxed)
                thread.wait(seconds: 3600)
            }
            seen.ended.store(true, ordering: .relaxed)
        }
        try eventually("the body's first round", timeout: 10) { seen.rounds.load(ordering: .relaxed) == 1 }
        thread.ring()
        try eventually("a second round after the ring", timeout: 10) { seen.rounds.load(ordering: .relaxed) == 2 }
        #expect(!thread.isStopping)
        thread.stop()
        #expect(thread.isStopping)
        let ended = seen.ended.load(ordering: .relaxed)
        #expect(ended, "stop() returns once the body has returned")
    }
}

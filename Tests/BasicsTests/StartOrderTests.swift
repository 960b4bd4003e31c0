import Basics
import Logging
import Synchronization
import Testing
import TestSupport

@Suite struct StartOrderTests {
    final class Recorder: Sendable {
        let events = Mutex<[String]>([])
        func note(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    final class Part: Startable {
        let name: String
        let recorder: Recorder
        let fails: Bool
        init(_ name: String, _ recorder: Recorder, fails: Bool = false) {
            self.name = name
            self.recorder = recorder
            self.fails = fails
        }
        struct Refused: Error {}
        func start() throws {
            if fails { throw Refused() }
            recorder.note("start \(name)")
        }
        func shutdown() { recorder.note("stop \(name)") }
    }

    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test func startsInOrderAndStopsInReverse() throws {
        let recorder = Recorder()
        let group = StartOrder([Part("a", recorder), Part("b", recorder), Part("c", recorder)], logger: logger)
        try group.start()
        group.shutdown()
        group.shutdown()
        #expect(recorder.all == ["start a", "start b", "start c", "stop c", "stop b", "stop a"])
    }

    @Test func aFailedStartStopsWhatHadStarted() {
        let recorder = Recorder()
        let group = StartOrder([Part("a", recorder), Part("b", recorder, fails: true), Part("c", recorder)],
                               logger: logger)
        #expect(throws: Part.Refused.self) { try group.start() }
        #expect(recorder.all == ["start a", "stop a"])
    }

    @Test func aPeriodicTaskRunsUntilShutdownAndStopsAtOnce() async throws {
        let runs = Atomic<Int>(0)
        let task = PeriodicTask(name: "tick", every: 0.01) { runs.add(1, ordering: .relaxed) }
        try task.start()
        try await eventually("three runs") { runs.load(ordering: .relaxed) >= 3 }
        task.shutdown()
        let after = runs.load(ordering: .relaxed)
        // A witness on the same period runs three times: the stopped task had time to run again.
        let witnessed = Atomic<Int>(0)
        let witness = PeriodicTask(name: "witness", every: 0.01) { witnessed.add(1, ordering: .relaxed) }
        try witness.start()
        defer { witness.shutdown() }
        try await eventually("the witness ran three times") { witnessed.load(ordering: .relaxed) >= 3 }
        #expect(runs.load(ordering: .relaxed) == after)
    }

    @Test func aLongPeriodStillShutsDownAtOnce() throws {
        let task = PeriodicTask(name: "slow", every: 3600) {}
        try task.start()
        task.shutdown()  // returns: the doorbell wakes the thread
    }
}

import Foundation
import Synchronization

/// Runs blocking clients on threads of their own: tests run on Swift's cooperative pool, which
/// has one thread per core, and clients blocked in socket calls there would wait on each other.
public enum Threads {
    /// Starts `count` threads running `body(index)` and returns a handle to collect the results.
    public static func start<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> Running<T> {
        let running = Running<T>(count: count)
        for index in 0..<count {
            let thread = Thread { running.finish(index, body(index)) }
            thread.stackSize = 1 << 20
            thread.start()
        }
        return running
    }

    /// Threads under way; `wait()` blocks until all have finished.
    public final class Running<T: Sendable>: Sendable {
        private let results: Mutex<[Int: T]> = Mutex([:])
        private let done: DispatchSemaphore
        private let count: Int

        init(count: Int) {
            self.count = count
            done = DispatchSemaphore(value: 0)
        }

        func finish(_ index: Int, _ result: T) {
            results.withLock { $0[index] = result }
            done.signal()
        }

        /// Every thread's result, in index order.
        public func wait() -> [T] {
            for _ in 0..<count { done.wait() }
            return results.withLock { results in (0..<count).map { results[$0]! } }
        }
    }
}

import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--report-stdout`: copies written lines to a file descriptor from its own thread, through a
/// bounded buffer. A reader that stops reading fills the buffer, and then lines are dropped and
/// counted: the file log and shutdown never wait for it.
final class OutputMirror: Sendable {
    struct State {
        var pending: [UInt8] = []
        var dropped = 0
        var stopping = false
        var loggedDrops = 0
    }

    let fd: Int32
    let capacity: Int
    let logger: Logger
    private let state = Mutex(State())
    private let wake = Doorbell()
    private let drained = Doorbell()

    /// The thread is never joined: a reader that stopped reading may hold it in `write` for good.
    init(fd: Int32 = STDOUT_FILENO, capacity: Int = 4 << 20, logger: Logger) throws {
        self.fd = fd
        self.capacity = capacity
        self.logger = logger
        _ = try WorkerThread(name: "report-stdout") { [self] in run() }
    }

    /// Lines mirrored lost to a full buffer.
    var dropped: Int { state.withLock { $0.dropped } }

    /// Queues whole lines; drops them (counted) if the buffer is full.
    func offer(_ lines: UnsafeRawBufferPointer) {
        guard lines.count > 0 else { return }
        let (wakeUp, newlyDropped) = state.withLock { state -> (Bool, Int) in
            guard state.pending.count + lines.count <= capacity else {
                let count = lines.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
                state.dropped += count
                let log = state.dropped >= state.loggedDrops * 2 + 1
                if log { state.loggedDrops = state.dropped }
                return (false, log ? state.dropped : 0)
            }
            let wasEmpty = state.pending.isEmpty
            state.pending.append(contentsOf: lines)
            return (wasEmpty, 0)
        }
        if wakeUp { wake.ring() }
        if newlyDropped > 0 {
            logger.warning("standard output is not being read; report lines not mirrored", metadata: ["dropped": "\(newlyDropped)"])
        }
    }

    /// Waits up to `timeout` for the buffer to be written out, then lets the thread go.
    func shutdown(timeout: TimeInterval = 1) {
        let empty = state.withLock { state in
            state.stopping = true
            return state.pending.isEmpty
        }
        wake.ring()
        if !empty { drained.wait(seconds: timeout) }
    }

    private func run() {
        var batch: [UInt8] = []
        while true {
            wake.wait()
            while true {
                let stopping = state.withLock { state in
                    swap(&batch, &state.pending)
                    return state.stopping
                }
                if batch.isEmpty {
                    if stopping {
                        drained.ring()
                        return
                    }
                    break
                }
                let (count, _) = batch.withUnsafeBytes { FileIO.writeAll(fd, $0) }
                if count < batch.count {
                    logger.error("writing report lines to standard output failed; mirroring stopped")
                    drained.ring()
                    return
                }
                batch.removeAll(keepingCapacity: true)
            }
        }
    }
}

import Dispatch
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer thread's side of `ReportLog`: owns the file descriptor and the retry backlog.
/// `@unchecked Sendable` because it is handed to the thread once and only ever used there.
final class ReportWriter: @unchecked Sendable {
    let path: String
    let mirror: Bool
    let capacity: Int
    let flushInterval: TimeInterval
    let logger: Logger
    /// Bytes encoded per write(2): large enough to amortise the call, small enough to bound memory.
    let chunkBytes = 256 * 1024
    var fd: Int32 = -1
    /// The file ends without a newline (torn line, or a cut-off partial write): start with one.
    var needsNewline = false
    /// Events taken from the queue but not yet written, oldest first.
    var backlog: [ReportEvent] = []
    var incoming: [ReportEvent] = []
    var buffer: [UInt8] = []
    var lineEnds: [Int] = []
    /// The error of the current failure streak; logged once when it starts.
    var failure: String?
    var mirrorFailed = false
    var droppedLogged = 0

    init(configuration: ReportLog.Configuration, logger: Logger) {
        path = configuration.path
        mirror = configuration.mirrorToStandardOutput
        capacity = configuration.bufferCapacity
        flushInterval = configuration.flushInterval
        self.logger = logger
    }

    func run(_ log: ReportLog) {
        _ = ensureOpen()
        publish(log, written: 0, dropped: 0)
        while true {
            _ = log.wake.wait(timeout: .now() + flushInterval)
            let stopping = log.state.withLock { state in
                state.wakeRequested = false
                if state.stopping { state.closed = true }
                let taken = state.queue.take(into: &incoming)
                state.dropped += taken.dropped
                state.held = backlog.count + taken.count
                return state.stopping
            }
            var dropped = mergeIncoming()
            let written = writeBacklog(log)
            if stopping && !backlog.isEmpty {
                logger.error(
                    "report log still unwritable at shutdown; events lost",
                    metadata: ["file": "\(path)", "report_events_dropped": "\(backlog.count)"])
                dropped += backlog.count
                backlog.removeAll()
            }
            publish(log, written: written, dropped: dropped)
            if stopping {
                closeFile(sync: true)
                return
            }
        }
    }

    /// Appends the new batch to the backlog and trims it to capacity; returns how many were dropped.
    func mergeIncoming() -> Int {
        if backlog.isEmpty {
            swap(&backlog, &incoming)
        } else {
            backlog.append(contentsOf: incoming)
            incoming.removeAll(keepingCapacity: true)
        }
        let excess = backlog.count - capacity
        guard excess > 0 else { return 0 }
        backlog.removeFirst(excess)
        return excess
    }

    func publish(_ log: ReportLog, written: Int, dropped: Int) {
        let total = log.state.withLock { state in
            state.written += written
            state.dropped += dropped
            state.held = backlog.count
            state.lastError = failure
            return state.dropped
        }
        if total > droppedLogged {
            logger.warning(
                "report events dropped",
                metadata: ["report_events_dropped": "\(total - droppedLogged)", "total": "\(total)"])
            droppedLogged = total
        }
    }

    /// Writes the backlog in chunks of whole lines; stops at the first failure. Returns lines written.
    func writeBacklog(_ log: ReportLog) -> Int {
        guard !backlog.isEmpty, ensureOpen() else { return 0 }
        var done = 0
        while done < backlog.count {
            buffer.removeAll(keepingCapacity: true)
            lineEnds.removeAll(keepingCapacity: true)
            let prefix = needsNewline ? 1 : 0
            if needsNewline { buffer.append(UInt8(ascii: "\n")) }
            // Through the buffer pointer each event is read in place; `backlog[next]` copied it
            // (retaining and releasing every field).
            backlog.withUnsafeBufferPointer { events in
                var next = done
                while next < events.count && buffer.count < chunkBytes {
                    events[next].appendJSONLine(to: &buffer)
                    lineEnds.append(buffer.count)
                    next += 1
                }
            }
            let (count, error) = buffer.withUnsafeBytes { writeAll(fd, $0) }
            if count > 0 { needsNewline = false }
            let complete = count == buffer.count ? lineEnds.count : lineEnds.prefix { $0 <= count }.count
            deliver(log, from: prefix, lines: complete)
            done += complete
            if count < buffer.count {
                let fragmentStart = complete == 0 ? prefix : lineEnds[complete - 1]
                if count > fragmentStart { cutFragment(length: count - fragmentStart) }
                fail("write failed", errno: error)
                closeFile(sync: false)
                break
            }
        }
        if done == backlog.count { backlog.removeAll(keepingCapacity: true) } else { backlog.removeFirst(done) }
        if backlog.isEmpty, let failure {
            logger.notice("report log writable again", metadata: ["file": "\(path)", "after": "\(failure)"])
            self.failure = nil
        }
        return done
    }

    /// Mirrors the first `lines` written lines of `buffer` to stdout and hands them to watchers.
    func deliver(_ log: ReportLog, from start: Int, lines: Int) {
        guard lines > 0 else { return }
        let end = lineEnds[lines - 1]
        if mirror && !mirrorFailed {
            let (count, error) = buffer.withUnsafeBytes { writeAll(STDOUT_FILENO, UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
            if count < end - start {
                mirrorFailed = true
                logger.error("report mirror to standard output failed; mirroring stopped", metadata: ["error": "\(describe(error))"])
            }
        }
        let handlers = log.watchers.withLock { $0.handlers.isEmpty ? [] : Array($0.handlers.values) }
        guard !handlers.isEmpty else { return }
        var lineStart = start
        for lineEnd in lineEnds[0..<lines] {
            let line = String(decoding: buffer[lineStart..<(lineEnd - 1)], as: UTF8.self)
            for handler in handlers { handler(line) }
            lineStart = lineEnd
        }
    }

    func fail(_ what: String, errno code: Int32) {
        let message = "\(what): \(path): \(describe(code))"
        if failure != message {
            logger.error("report log unwritable; keeping events and retrying", metadata: ["error": "\(message)"])
        }
        failure = message
    }

    func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

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
    /// The file's size as this writer knows it: where the next byte written lands.
    var fileOffset = 0
    /// The file ends without a newline (torn line, or a cut-off partial write): start with one.
    var needsNewline = false
    /// Events taken from the queue but not yet written, oldest first.
    var backlog: [ReportEvent] = []
    var incoming: [ReportEvent] = []
    /// Scratch space the chunk being written is encoded into; see `encodeChunk`.
    var buffer: [UInt8] = []
    /// The error of the current failure streak; logged once when it starts.
    var failure: String?
    var mirrorFailed = false
    var droppedLogged = 0
    /// The sequence number of the next event taken from the queue (see `ReportLog.record(_:whenWritten:)`).
    var nextSequence = 0
    /// The sequence numbers of the backlog's events, in order, as runs.
    var backlogSequences: [Range<Int>] = []

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
            let (stopping, taken) = log.state.withLock { state in
                state.wakeRequested = false
                if state.stopping { state.closed = true }
                let taken = state.queue.take(into: &incoming)
                state.dropped += taken.dropped
                state.held = backlog.count + taken.count
                return (state.stopping, taken)
            }
            // The queue drops its oldest, so its drops come before the batch in sequence.
            log.resolve([nextSequence..<nextSequence + taken.dropped], written: false)
            nextSequence += taken.dropped
            if taken.count > 0 { backlogSequences.append(nextSequence..<nextSequence + taken.count) }
            nextSequence += taken.count
            var dropped = mergeIncoming()
            log.resolve(takeSequences(dropped), written: false)
            let written = writeBacklog(log)
            log.resolve(takeSequences(written), written: true)
            if stopping && !backlog.isEmpty {
                log.resolve(takeSequences(backlog.count), written: false)
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

    /// The sequence numbers of the backlog's first `count` events, which have just left it.
    func takeSequences(_ count: Int) -> [Range<Int>] {
        var left = count
        var taken: [Range<Int>] = []
        while left > 0, let first = backlogSequences.first {
            let part = first.lowerBound..<min(first.upperBound, first.lowerBound + left)
            taken.append(part)
            left -= part.count
            if part.upperBound == first.upperBound {
                backlogSequences.removeFirst()
            } else {
                backlogSequences[0] = part.upperBound..<first.upperBound
            }
        }
        return taken
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
            let prefix = needsNewline ? 1 : 0
            let chunk = encodeChunk(from: done, prefix: prefix)
            let base = fileOffset
            let (count, error) = buffer.withUnsafeBytes { writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[..<chunk.length])) }
            fileOffset += count
            if count > 0 { needsNewline = false }
            let complete = count == chunk.length ? (lines: chunk.lines, end: count) : wholeLines(in: prefix..<max(prefix, count))
            deliver(log, from: prefix, to: complete.end, fileOffset: base)
            done += complete.lines
            if count < chunk.length {
                if count > complete.end { cutFragment(length: count - complete.end) }
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

    /// Encodes lines from `backlog[start...]` into `buffer`, after a newline if `prefix` is 1, until
    /// `chunkBytes` are used or the next one might not fit; returns the bytes used and the lines encoded.
    func encodeChunk(from start: Int, prefix: Int) -> (length: Int, lines: Int) {
        // `buffer` is scratch of a fixed size that lines are written into directly, with one bound
        // check per line. It fits a chunk or the first line at worst; a giant line's is not kept.
        let needed = prefix + max(chunkBytes, backlog[start].jsonLineBound)
        if buffer.count < needed || buffer.count > 2 * needed { buffer = [UInt8](repeating: 0, count: needed) }
        return backlog.withUnsafeMutableBufferPointer { events in
            buffer.withUnsafeMutableBufferPointer { chunk in
                if prefix == 1 { chunk[0] = UInt8(ascii: "\n") }
                var length = prefix
                var next = start
                while next < events.count, length < chunkBytes,
                    let count = Self.encode(&events[next], into: chunk, at: length)
                {
                    length += count
                    next += 1
                }
                return (length, next - start)
            }
        }
    }

    /// Writes the event's line at `chunk[offset...]` if its worst case fits; returns its length, or nil.
    /// `inout` lends the event in place: passed by value it was copied (every field retained and
    /// released), as the compiler cannot tell that writing through the chunk's pointer leaves it alone.
    private static func encode(
        _ event: inout ReportEvent, into chunk: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int? {
        guard event.jsonLineBound <= chunk.count - offset else { return nil }
        return event.writeJSONLine(to: chunk.baseAddress! + offset)
    }

    /// The number of whole lines in `buffer[range]` and where the last one ends (the start if none).
    func wholeLines(in range: Range<Int>) -> (lines: Int, end: Int) {
        var result = (lines: 0, end: range.lowerBound)
        for index in range where buffer[index] == UInt8(ascii: "\n") {
            result = (result.lines + 1, index + 1)
        }
        return result
    }

    /// Mirrors the lines in `buffer[start..<end]` to stdout and hands them to watchers; the
    /// buffer's first byte is at `fileOffset` in the file.
    func deliver(_ log: ReportLog, from start: Int, to end: Int, fileOffset: Int) {
        guard end > start else { return }
        if mirror && !mirrorFailed {
            let (count, error) = buffer.withUnsafeBytes { writeAll(STDOUT_FILENO, UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
            if count < end - start {
                mirrorFailed = true
                logger.error("report mirror to standard output failed; mirroring stopped", metadata: ["error": "\(describe(error))"])
            }
        }
        let (handlers, runHandlers) = log.watchers.withLock {
            ($0.handlers.isEmpty ? [] : Array($0.handlers.values), $0.runHandlers.isEmpty ? [] : Array($0.runHandlers.values))
        }
        if !runHandlers.isEmpty {
            let run = Array(buffer[start..<end])
            for handler in runHandlers { handler(run, fileOffset + start) }
        }
        guard !handlers.isEmpty else { return }
        // Lines hold no raw newline (control characters are escaped), so splitting finds them all.
        for bytes in buffer[start..<end].split(separator: UInt8(ascii: "\n")) {
            let line = String(decoding: bytes, as: UTF8.self)
            for handler in handlers { handler(line) }
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

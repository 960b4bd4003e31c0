import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer thread's side of `ReportLog`: takes everything queued on the channel, writes it
/// with one `write` per chunk (group commit), then tells the callbacks, the mirror and the
/// channel's watchers.
/// `@unchecked Sendable` because it is handed to the thread once and only ever used there.
final class ReportWriter: @unchecked Sendable {
    let configuration: ReportLog.Configuration
    let logger: Logger
    let sink: SegmentSink
    let maintenance: Maintenance
    let mirror: OutputMirror?
    let channel: ReportChannel
    /// Events taken from the queue but not yet written, oldest first.
    var backlog: [PendingEvent] = []
    var incoming: [PendingEvent] = []
    /// The error of the current failure streak; logged once when it starts.
    var failure: String?
    var belowFloor = false
    var droppedLogged = 0
    var lastFreeCheck = DispatchTime(uptimeNanoseconds: 0)
    var lastPersist = DispatchTime.now()
    var lastRetention = DispatchTime.now()
    var persistedBytes: Int64 = -1
    /// Lines were written since the active rollup was last handed to be saved.
    var unpersisted = false

    init(configuration: ReportLog.Configuration, catalog: SegmentCatalog, maintenance: Maintenance,
         channel: ReportChannel, logger: Logger) throws {
        self.configuration = configuration
        self.channel = channel
        self.logger = logger
        self.maintenance = maintenance
        sink = SegmentSink(
            catalog: catalog, segmentBytes: configuration.segmentBytes, sync: configuration.fsync, chunkBytes: 128 << 10,
            maintenance: maintenance, logger: logger, writeBytes: configuration.writeBytes)
        mirror = configuration.mirrorToStandardOutput ? try OutputMirror(logger: logger) : nil
    }

    func run() {
        while true {
            let taken = channel.take(into: &incoming, after: configuration.flushInterval, idle: idleSeconds(),
                                     held: backlog.count)
            let stopping = taken.stopping
            for callback in taken.dropped { callback(false) }
            var dropped = dropOversized() + mergeIncoming()
            var written = 0
            if checkFloor() {
                dropped += dropAll()
            } else {
                written = writeBacklog()
                if written > 0 { unpersisted = true }
            }
            if stopping && !backlog.isEmpty {
                logger.error(
                    "report log still unwritable at shutdown; events lost",
                    metadata: ["directory": "\(configuration.directory)", "report_events_dropped": "\(backlog.count)"])
                dropped += dropAll()
            }
            publish(written: written, dropped: dropped)
            housekeeping(stopping: stopping)
            if stopping {
                sink.closeActive()
                sink.stopTallies()
                maintenance.shutdown()
                mirror?.shutdown()
                return
            }
        }
    }

    /// Drops (and logs) the new events whose line could be longer than `ReportEvent.maximumLineBound`:
    /// the chunk would grow to hold it, and every reader would hold such lines.
    func dropOversized() -> Int {
        // Lent in place (`inout`): read by value, each event was copied, every field retained and released.
        let oversized = incoming.withUnsafeMutableBufferPointer { events in
            events.indices.contains { Self.lineBound(of: &events[$0]) > ReportEvent.maximumLineBound }
        }
        guard oversized else { return 0 }
        let before = incoming.count
        incoming.removeAll { pending in
            guard pending.lineBound > ReportEvent.maximumLineBound else { return false }
            pending.whenWritten?(false)
            return true
        }
        let count = before - incoming.count
        logger.warning("report events too large to write were dropped",
                       metadata: ["report_events_dropped": "\(count)", "limit_bytes": "\(ReportEvent.maximumLineBound)"])
        return count
    }

    private static func lineBound(of pending: inout PendingEvent) -> Int { pending.lineBound }

    /// Appends the new batch to the backlog and trims it to capacity; returns how many were dropped.
    func mergeIncoming() -> Int {
        if backlog.isEmpty {
            swap(&backlog, &incoming)
        } else {
            backlog.append(contentsOf: incoming)
            incoming.removeAll(keepingCapacity: true)
        }
        let excess = backlog.count - configuration.bufferCapacity
        guard excess > 0 else { return 0 }
        for pending in backlog[..<excess] { pending.whenWritten?(false) }
        backlog.removeFirst(excess)
        return excess
    }

    func dropAll() -> Int {
        let count = backlog.count
        for pending in backlog { pending.whenWritten?(false) }
        backlog.removeAll(keepingCapacity: true)
        return count
    }

    /// True while free space is below `--report-min-free` (checked at most every
    /// `freeSpaceCheckInterval`).
    func checkFloor() -> Bool {
        guard !backlog.isEmpty else { return belowFloor }
        let now = DispatchTime.now()
        let interval = UInt64(configuration.freeSpaceCheckInterval * 1e9)
        guard now.uptimeNanoseconds - lastFreeCheck.uptimeNanoseconds >= interval else { return belowFloor }
        lastFreeCheck = now
        guard let space = configuration.freeSpace(configuration.directory) else { return false }
        let floor = configuration.minimumFree.bytes(ofTotal: space.total)
        let below = space.available < floor
        if below != belowFloor {
            if below {
                logger.error(
                    "free space below --report-min-free; report events are dropped until space returns",
                    metadata: ["available": "\(space.available)", "floor": "\(floor)"])
            } else {
                logger.notice("free space back above --report-min-free; report events written again")
            }
            belowFloor = below
        }
        return below
    }

    func publish(written: Int, dropped: Int) {
        let total = channel.report(written: written, dropped: dropped, held: backlog.count, error: failure)
        if dropped > 0 { sink.catalog.addDropped(dropped) }
        if total > droppedLogged {
            logger.warning(
                "report events dropped",
                metadata: ["report_events_dropped": "\(total - droppedLogged)", "total": "\(total)"])
            droppedLogged = total
        }
    }

    /// Writes the backlog a chunk at a time; stops at the first failure. Returns lines written.
    func writeBacklog() -> Int {
        guard !backlog.isEmpty else { return 0 }
        settleClaims(from: 0) { $0.claim() }
        guard !backlog.isEmpty else { return 0 }
        var done = 0
        while done < backlog.count {
            _ = backlog.withUnsafeMutableBufferPointer { events in
                var next = done
                while next < events.count {
                    if !Self.append(&events[next], to: sink) { break }
                    next += 1
                }
                return next
            }
            let stamp = sink.active
            // Timed up to the bytes being durable, before the watchers are fed.
            let started = DispatchTime.now().uptimeNanoseconds
            var timed = false
            let (lines, error) = sink.flush { bytes in
                channel.flushTimes.record(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
                timed = true
                deliver(bytes, stamp: sink.active ?? stamp)
            }
            if !timed { channel.flushTimes.record(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9) }
            for index in done..<(done + lines) { backlog[index].whenWritten?(true) }
            done += lines
            // The gauge follows each chunk: a long round (large lines) held it at the round's size.
            channel.progress(held: backlog.count - done)
            if error != 0 {
                fail("write failed", errno: error)
                break
            }
        }
        if done < backlog.count { settleClaims(from: done) { $0.release() } }
        if done == backlog.count { backlog.removeAll(keepingCapacity: true) } else { backlog.removeFirst(done) }
        if backlog.isEmpty, let failure {
            logger.notice("report log writable again", metadata: ["directory": "\(configuration.directory)", "after": "\(failure)"])
            self.failure = nil
        }
        return done
    }

    /// Claims the withdrawable events from `start` on for a write (or hands back those a failed
    /// write left); the ones withdrawn meanwhile leave the backlog unwritten, told `false`: their
    /// posts were answered 503 and a retry must not find them in the log.
    private func settleClaims(from start: Int, _ settle: (WriteClaim) -> Bool) {
        var kept = start
        for index in start..<backlog.count {
            if let claim = backlog[index].claim, !settle(claim) {
                backlog[index].whenWritten?(false)
                continue
            }
            if kept != index { backlog.swapAt(kept, index) }
            kept += 1
        }
        if kept < backlog.count { backlog.removeLast(backlog.count - kept) }
    }

    /// Encodes the event into the sink's chunk (its time made monotonic); false if the chunk must be written first.
    private static func append(_ pending: inout PendingEvent, to sink: SegmentSink) -> Bool {
        let original = ReportTimestamp.milliseconds(pending.event.timestamp)
        let ms = sink.monotonic(original)
        guard let target = sink.room(ms: ms, bound: pending.lineBound) else { return false }
        if original != ms { pending.event.timestamp = ReportTimestamp.date(milliseconds: ms) }
        if let template = pending.template {
            // The template's pieces copied around the time, visitor and request: nothing else to encode.
            let count = template.writeJSONLine(ms: ms, visitor: pending.visitor, request: pending.event.request,
                                               requestID: pending.requestID, to: target, timestamps: &sink.timestamps)
            sink.commit(count, template: template, visitor: pending.visitor, ms: ms)
        } else {
            sink.commit(pending.event.writeJSONLine(to: target, timestamps: &sink.timestamps), &pending.event, ms: ms)
        }
        return true
    }

    /// Mirrors the lines just written to stdout and hands them to watchers.
    func deliver(_ bytes: UnsafeRawBufferPointer, stamp: String?) {
        mirror?.offer(bytes)
        let (watchers, handlers) = channel.listeners()
        guard !watchers.isEmpty || !handlers.isEmpty, let stamp else { return }
        // The chunk ends the segment now: its lines start `bytes.count` before the end.
        let base = (sink.catalog.entry(stamp)?.rollup.bytes ?? Int64(bytes.count)) - Int64(bytes.count)
        var lines: [ReportWatcher.Line] = []
        var offset = 0
        let typed = bytes.bindMemory(to: UInt8.self)
        while offset < typed.count, let newline = typed[offset...].firstIndex(of: 10) {
            let text = String(decoding: UnsafeBufferPointer(rebasing: typed[offset..<newline]), as: UTF8.self)
            lines.append(ReportWatcher.Line(text: text, position: ReportPosition(segment: stamp, offset: base + Int64(offset))))
            offset = newline + 1
        }
        for handler in handlers { for line in lines { handler(line.text) } }
        var over: [ObjectIdentifier] = []
        for watcher in watchers where !watcher.deliver(lines) { over.append(ObjectIdentifier(watcher)) }
        if !over.isEmpty {
            channel.watchers.withLock { all in for id in over { all.removeValue(forKey: id) } }
            logger.notice("report watchers fell behind and were cut", metadata: ["count": "\(over.count)"])
        }
    }

    /// How long a writer with nothing to write may sleep: until the rollup of lines written
    /// since its last save is due, else until retention is.
    func idleSeconds() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        let retention = Double(Int64(lastRetention.uptimeNanoseconds + 60_000_000_000) - Int64(now)) / 1e9
        guard unpersisted else { return max(0.001, retention) }
        let persist = Double(Int64(lastPersist.uptimeNanoseconds) + Int64(configuration.rollupInterval * 1e9) - Int64(now)) / 1e9
        return max(0.001, min(persist, retention))
    }

    /// Persists the active rollup every `rollupInterval` and applies retention every minute.
    func housekeeping(stopping: Bool) {
        let now = DispatchTime.now()
        if !stopping, now.uptimeNanoseconds - lastPersist.uptimeNanoseconds >= UInt64(configuration.rollupInterval * 1e9) {
            lastPersist = now
            unpersisted = false
            if let (stamp, rollup) = sink.activeRollup, rollup.bytes != persistedBytes {
                persistedBytes = rollup.bytes
                maintenance.submit(.persist(stamp, rollup, closed: false))
            }
        }
        if now.uptimeNanoseconds - lastRetention.uptimeNanoseconds >= 60_000_000_000 {
            lastRetention = now
            maintenance.submit(.retention)
        }
    }

    func fail(_ what: String, errno code: Int32) {
        let message = "\(what): \(configuration.directory): \(String(cString: strerror(code)))"
        if failure != message {
            logger.error("report log unwritable; keeping events and retrying", metadata: ["error": "\(message)"])
        }
        failure = message
    }
}

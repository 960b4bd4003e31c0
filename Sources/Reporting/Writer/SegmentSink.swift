import Basics
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Appends lines to the active segment: the writer thread's (or an import's) side of the store.
/// Lines are gathered in a chunk and written with one `write`; the segment is closed at the size
/// limit and when the UTC day changes; timestamps are made monotonic; the rollup of what was written
/// is merged into the catalog after each write. One thread appends (the writer's, or an import's),
/// never through overlapping accesses: the state each line updates goes without the runtime's
/// exclusivity checks (about 75 instructions an access, two a line).
final class SegmentSink {
    let catalog: SegmentCatalog
    let segmentBytes: Int64
    let sync: Bool
    let maintenance: Maintenance?
    let logger: Logger
    /// `write(2)` with retries; a seam for tests of a full disk.
    let writeBytes: @Sendable (Int32, UnsafeRawBufferPointer) -> (count: Int, error: Int32)
    /// The chunk: lines are encoded straight into it. Memory of its own rather than an array: an
    /// array in a class is borrowed with an exclusivity check and a uniqueness check per line.
    private var buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var length = 0
    private var chunkLines = 0
    private var chunkFirstMs: Int64 = 0
    private var chunkDay: Int64 = 0
    /// After this chunk is written, the segment is full or the day is over.
    private var closeAfterFlush = false
    @exclusivity(unchecked) private var builder: RollupBuilder
    /// The last line's second as text, for the next line's timestamp.
    @exclusivity(unchecked) var timestamps = TimestampCache()
    /// The active segment's visitors, saved beside it when it closes.
    @exclusivity(unchecked) private var visitors = VisitorFilter()
    /// Exact per-visitor sums of the experiments, kept as lines are written.
    private let tallies: ExperimentTallies?
    private var fd: Int32 = -1
    private(set) var active: String?
    private var activeDay: Int64 = 0
    private var activeBytes: Int64 = 0
    private var lastStampMs: Int64
    /// The newest timestamp written: no later line is older (equal times are allowed).
    private(set) var lastMs: Int64

    init(
        catalog: SegmentCatalog, segmentBytes: Int64, sync: Bool, chunkBytes: Int, maintenance: Maintenance?, logger: Logger,
        talliesInBackground: Bool = true,
        writeBytes: @escaping @Sendable (Int32, UnsafeRawBufferPointer) -> (count: Int, error: Int32) = FileIO.writeAll
    ) {
        self.writeBytes = writeBytes
        self.catalog = catalog
        self.segmentBytes = max(1024, segmentBytes)
        self.sync = sync
        self.maintenance = maintenance
        self.logger = logger
        buffer = .allocate(capacity: max(1, chunkBytes))
        builder = RollupBuilder(interner: catalog.interner)
        tallies = ExperimentTallies.open(catalog: catalog, logger: logger, background: talliesInBackground)
        let newest = catalog.segments.last
        lastStampMs = newest?.startMs ?? .min
        lastMs = newest.map { max($0.startMs, $0.rollup.lastMs) } ?? .min
    }

    deinit { buffer.deallocate() }

    /// The time an event at `ms` is written with: never older than the last line.
    @inline(__always)
    func monotonic(_ ms: Int64) -> Int64 { ms < lastMs ? lastMs : ms }

    /// Room for a line of at most `bound` bytes at time `ms` (already monotonic), or nil when the
    /// chunk must be flushed first.
    func room(ms: Int64, bound: Int) -> UnsafeMutablePointer<UInt8>? {
        let day = ReportTimestamp.floorDiv(ms, ReportTimestamp.msPerDay)
        if length == 0 {
            if active != nil, activeDay != day || (activeBytes > 0 && activeBytes + Int64(bound) > segmentBytes) {
                closeActive()
            }
            chunkDay = day
            chunkFirstMs = ms
            if bound > buffer.count {
                buffer.deallocate()
                buffer = .allocate(capacity: bound)
            }
        } else {
            if day != chunkDay || (active == nil ? 0 : activeBytes) + Int64(length + bound) > segmentBytes {
                closeAfterFlush = true
                return nil
            }
            if length + bound > buffer.count { return nil }
        }
        return buffer.baseAddress! + length
    }

    /// Takes the line just written at `room`'s pointer into the chunk.
    @inline(__always)
    /// `inout` lends the event in place: passed by value it was copied, every field retained and released.
    func commit(_ count: Int, _ event: inout ReportEvent, ms: Int64) {
        commit(count, name: event.name, layout: event.layout, item: event.item, properties: event.properties,
               visitor: event.visitor, ms: ms)
    }

    /// Takes the line just written into the chunk, for an event given by its parts.
    @inline(__always)
    func commit(_ count: Int, name: ReportEvent.Name, layout: String?, item: String?, properties: [String: String],
                visitor: String?, ms: Int64) {
        length += count
        chunkLines += 1
        lastMs = ms
        noteVisitor(builder.add(name: name, layout: layout, item: item, properties: properties, visitor: visitor, ms: ms,
                                bytes: count), name, properties, ms)
    }

    @inline(__always)
    private func noteVisitor(_ hash: UInt64?, _ name: ReportEvent.Name, _ properties: [String: String], _ ms: Int64) {
        guard let hash else { return }
        visitors.add(hash: hash)
        tallies?.note(name, properties, visitor: hash, ms: ms, line: chunkLines - 1)
    }

    /// Takes the line just written into the chunk, for an event made from `template`.
    @inline(__always)
    func commit(_ count: Int, template: EventTemplate, visitor: VisitorID?, ms: Int64) {
        length += count
        chunkLines += 1
        lastMs = ms
        if let hash = builder.add(template, visitor: visitor, ms: ms, bytes: count) {
            visitors.add(hash: hash)
            // The tallies note nothing of an event without properties.
            if template.hasProperties { tallies?.note(template, visitor: hash, ms: ms, line: chunkLines - 1) }
        }
    }

    var isEmpty: Bool { length == 0 }

    /// Writes the chunk (opening a segment if needed), then hands the bytes written to `written`.
    /// Returns the whole lines written and the errno of a failure (0 if none).
    /// The active file is checked before and after each write (two `fstat`s a chunk, none an event):
    /// deleted under the writer, the chunk goes again into a new segment (`rewritten` once).
    @discardableResult
    func flush(_ written: (UnsafeRawBufferPointer) -> Void = { _ in }, rewritten: Bool = false) -> (lines: Int, error: Int32) {
        guard length > 0 else { return (0, 0) }
        if active != nil { checkActiveFile() }
        if active == nil, let error = openSegment() {
            builder.startOver()
            discardChunk()
            return (0, error)
        }
        let (count, error) = writeBytes(fd, UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<length])))
        var lines = chunkLines
        if count < length {
            // Keep whole lines only: cut the fragment and recount what made it.
            let whole = buffer[..<count].lastIndex(of: 10).map { $0 + 1 } ?? 0
            if count > whole { _ = ftruncate(fd, off_t(activeBytes + Int64(whole))) }
            builder.reset()
            builder.startOver()
            lines = 0
            var offset = 0
            while offset < whole, let newline = buffer[offset..<whole].firstIndex(of: 10) {
                if let event = try? ReportEvent(parsing: UnsafeBufferPointer(rebasing: buffer[offset..<newline])) {
                    builder.add(event, ms: ReportTimestamp.milliseconds(event.timestamp), bytes: newline + 1 - offset)
                    lines += 1
                }
                offset = newline + 1
            }
            activeBytes += Int64(whole)
            tallies?.keep(lines: lines)
            publish()
            written(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<whole])))
            discardChunk()
            return (lines, error == 0 ? EIO : error)
        }
        if sync, fsync(fd) != 0 {
            logger.error("fsync of report segment failed", metadata: ["error": "\(String(cString: strerror(errno)))"])
        }
        if !rewritten, activeFileDeleted() {
            // Written into a deleted file: not kept, so not yet acknowledged. Again, in a new one.
            activeVanished()
            return flush(written, rewritten: true)
        }
        activeBytes += Int64(count)
        publish()
        written(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<count])))
        discardChunk()
        if closeAfterFlush { closeActive() }
        return (lines, 0)
    }

    private func discardChunk() {
        length = 0
        chunkLines = 0
        closeAfterFlush = false
        builder.reset()
        tallies?.discard()
    }

    private func publish() {
        guard let active else { return }
        let delta = builder.rollup
        let bytes = activeBytes
        catalog.update(active) { entry in
            entry.rollup.merge(delta)
            entry.rollup.bytes = bytes
            entry.fileBytes = bytes
        }
        tallies?.apply(stamp: active, bytes: bytes)
        tallies?.publish()
        builder.reset()
    }

    /// Stops preparing the experiment tallies if that is still under way (shutdown).
    func stopTallies() { tallies?.stop() }

    /// Creates the next segment, named after the chunk's first time (and after the previous name).
    private func openSegment() -> Int32? {
        let stampMs = max(chunkFirstMs, lastStampMs == .min ? chunkFirstMs : lastStampMs + 1)
        let stamp = SegmentName.stamp(milliseconds: stampMs)
        let path = catalog.path(stamp: stamp, compressed: false)
        // Read and write: the last byte of a file found torn is read back (`endTornLine`).
        var opened = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        if opened < 0 && errno == ENOENT {
            // The directory was removed under the running log: make it again.
            _ = mkdir(catalog.directory, 0o755)
            opened = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        }
        guard opened >= 0 else { return errno }
        var info = stat()
        _ = fstat(opened, &info)
        fd = opened
        if sync { syncDirectory() }
        active = stamp
        activeDay = ReportTimestamp.floorDiv(stampMs, ReportTimestamp.msPerDay)
        activeBytes = endTornLine(size: Int64(info.st_size))
        lastStampMs = stampMs
        catalog.add(SegmentEntry(stamp: stamp, startMs: stampMs, compressed: false, active: true, rollup: Rollup(), fileBytes: activeBytes))
        return nil
    }

    /// Before a write: the active file deleted, or not the size written (truncated, or appended
    /// to by someone else), is dealt with so the chunk starts a line of a file that is there.
    private func checkActiveFile() {
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0 else { return }
        if isDeleted(info) {
            activeVanished()
        } else if Int64(info.st_size) != activeBytes, let active {
            let size = Int64(info.st_size)
            logger.error(
                "the active report segment was changed under the writer; a torn last line is ended and its counts recounted",
                metadata: ["segment": "\(SegmentName.dataFile(active, compressed: false))", "expected_bytes": "\(activeBytes)",
                           "found_bytes": "\(size)"])
            activeBytes = endTornLine(size: size)
            recountActive()
            tallies?.markStale()
        }
    }

    private func activeFileDeleted() -> Bool {
        var info = stat()
        return fd >= 0 && fstat(fd, &info) == 0 && isDeleted(info)
    }

    /// No link left to the open file, and its name leads elsewhere or nowhere: a file system that
    /// reports no links for an open file (some do) must not have every chunk written twice.
    private func isDeleted(_ info: stat) -> Bool {
        guard info.st_nlink == 0, let active else { return false }
        var named = stat()
        return stat(catalog.path(stamp: active, compressed: false), &named) != 0
            || named.st_ino != info.st_ino || named.st_dev != info.st_dev
    }

    /// The active segment was deleted (by hand) while open: the lines in it are gone with it. It
    /// leaves the catalog, and the next chunk opens a new segment.
    private func activeVanished() {
        guard let stamp = active else { return }
        logger.error(
            "the active report segment was deleted while being written; the events in it are lost, a new segment follows",
            metadata: ["segment": "\(SegmentName.dataFile(stamp, compressed: false))",
                       "events": "\(catalog.entry(stamp)?.rollup.lines ?? 0)"])
        closeFile()
        active = nil
        builder.startOver()
        catalog.remove(stamp)
        tallies?.markStale()
        unlink(catalog.rollupPath(stamp))
        // The visitor filter is kept: a superset only costs a reader a needless look.
    }

    /// Writes a newline after a last line without one (cut mid-line), so the next line starts on
    /// its own and only the torn one is unreadable; returns the file's size after it.
    private func endTornLine(size: Int64) -> Int64 {
        guard size > 0 else { return size }
        var last: UInt8 = 0
        guard pread(fd, &last, 1, off_t(size - 1)) == 1, last != 10 else { return size }
        var newline: UInt8 = 10
        guard write(fd, &newline, 1) == 1 else { return size }
        if let active {
            logger.warning("ended a torn last line of the active report segment",
                           metadata: ["segment": "\(SegmentName.dataFile(active, compressed: false))"])
        }
        return size + 1
    }

    /// Counts the active segment again from its file, after it changed under the writer.
    private func recountActive() {
        guard let active else { return }
        do {
            let rollup = try SegmentDirectory.scan(
                catalog.path(stamp: active, compressed: false), compressed: false, end: activeBytes,
                interner: catalog.interner, visitors: &visitors)
            let bytes = activeBytes
            catalog.update(active) { entry in
                entry.rollup = rollup
                entry.rollup.bytes = bytes
                entry.fileBytes = bytes
            }
        } catch {
            logger.error("cannot recount the active report segment", metadata: ["error": "\(error)"])
        }
    }

    private func syncDirectory() {
        let dir = open(catalog.directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// Ends the active segment: its rollup is written as closed, then it is compressed.
    func closeActive() {
        guard let stamp = active else { return }
        if sync { _ = fsync(fd) }
        closeFile()
        active = nil
        builder.startOver()
        var closed: Rollup?
        catalog.update(stamp) { entry in
            entry.active = false
            closed = entry.rollup
        }
        // The next segment's first chunk is encoded before its file is opened: start afresh here.
        let visitors = self.visitors
        self.visitors = VisitorFilter()
        if let closed {
            if let maintenance {
                maintenance.closed(stamp, rollup: closed, visitors: visitors)
            } else {
                if RollupFile.writeAtomically(
                    RollupFile.encode(closed, closed: true, names: catalog.interner.names), to: catalog.rollupPath(stamp), sync: sync)
                {
                    catalog.update(stamp) { $0.freeze() }
                }
                _ = RollupFile.writeAtomically(visitors.encode(), to: catalog.visitorsPath(stamp), sync: sync)
            }
        }
    }

    /// The active segment's rollup so far, for persisting while it is written.
    var activeRollup: (stamp: String, rollup: Rollup)? {
        guard let active, let entry = catalog.entry(active) else { return nil }
        return (active, entry.rollup)
    }

    private func closeFile() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }
}

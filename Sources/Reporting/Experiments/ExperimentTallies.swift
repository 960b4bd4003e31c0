import Basics
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer's side of the experiment tallies (`ExperimentTally`, one per experiment in
/// `<log>/experiments/`): each event's experiments are noted as the line goes into the chunk, and
/// applied once the chunk is on disk, the lines that made it only, so the tallies say exactly
/// what the log holds. `position` records how far the log has been applied.
///
/// Opening never holds up the writer: a thread of its own loads the tallies (adding up their cells)
/// or, when they do not match the log (missing, damaged, or a crash while applying), rebuilds them
/// from the log, publishing its progress, while the writer writes on without counting. When it has
/// read the log to its end it hands the tallies over (`Handover`); at its next chunk the writer
/// counts the few lines written since, and from then on counts every chunk itself.
final class ExperimentTallies: @unchecked Sendable {
    struct Note {
        let tally: Int32
        let group: UInt8
        let kind: ExperimentTally.Kind
        let segment: UInt8
        let day: UInt16
        let line: Int32
        let visitor: UInt64
    }

    /// The tallies and groups an event names, its segment, and what the event is to them.
    struct TallyGroups {
        var groups: [(tally: Int32, group: UInt8)] = []
        var segment: UInt8 = 0
        var kind = ExperimentTally.Kind.exposure
    }

    /// Where the preparing thread left off, once it is done; guarded by `handover`.
    struct Handover {
        var ready = false, stamp = "", bytes: Int64 = 0
    }

    /// Experiments tallied at most; the toggles allow 32 active at once.
    static let maxExperiments = 64

    let directory: String
    let catalog: SegmentCatalog
    let board: ExperimentTallyBoard
    let logger: Logger
    // Owned by one thread at a time: the preparing thread until it hands over, then the writer's
    // (the handover's lock orders the two). No exclusivity checks on the hot path.
    @exclusivity(unchecked) private var tallies: [ExperimentTally] = []
    private var byName: [String: Int32] = [:]
    /// `experiment.<name>` of each tally, in the tallies' order.
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var notes: [Note] = []
    private var position: TallyPosition
    /// What each template's events name, direct-mapped by the template's address, each slot
    /// holding its template (as `InternCache` does). The writer's alone, made once it counts:
    /// tallies are only added from then on, so the indices hold.
    @exclusivity(unchecked) private var templateKeys: [ObjectIdentifier?] = []
    @exclusivity(unchecked) private var templateGroups: [TallyGroups] = []
    private var templates: [EventTemplate?] = []
    private static let templateSlots = 64
    private var refused: Set<String> = []
    /// The writer's: true once it has the tallies and counts its chunks.
    @exclusivity(unchecked) private var live = false
    /// The log changed under the writer (a segment deleted or rewritten by hand): the tallies are
    /// rebuilt at the next start.
    private var stale = false
    private let handover = Mutex(Handover())
    private let stopping = Atomic<Bool>(false)
    private var preparer: WorkerThread?

    private init(directory: String, catalog: SegmentCatalog, logger: Logger, position: TallyPosition) {
        self.directory = directory
        self.catalog = catalog
        board = catalog.experimentTallies
        self.logger = logger
        self.position = position
    }

    /// The tallies of the log in `catalog`, made ready on a thread of their own (`background`) or
    /// before returning; nil (no tallies, logged) when the directory cannot be written.
    static func open(catalog: SegmentCatalog, logger: Logger, background: Bool = true) -> ExperimentTallies? {
        let directory = catalog.directory + "/experiments"
        _ = mkdir(directory, 0o755)
        guard let position = TallyPosition(path: directory + "/position") else {
            logger.error("experiment tallies unavailable: cannot write", metadata: ["directory": "\(directory)"])
            return nil
        }
        let tallies = ExperimentTallies(directory: directory, catalog: catalog, logger: logger, position: position)
        // The log's end before the writer adds to it: what tallies that match it must say.
        let end = catalog.segments.last.map { ($0.stamp, $0.rollup.bytes) } ?? ("", 0)
        tallies.board.counting(progress: 0)
        if background, let thread = try? WorkerThread(name: "report-tallies", niceness: 5, { tallies.prepare(end: end) }) {
            tallies.preparer = thread
        } else {
            tallies.prepare(end: end)
            tallies.takeOver(stamp: end.0, bytes: end.1)
        }
        return tallies
    }

    /// Stops a preparation still running (shutdown); the tallies are then prepared at the next start.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        preparer?.join()
    }

    /// On the preparing thread: loads or rebuilds the tallies, reads the log to its end, hands over.
    private func prepare(end: (stamp: String, bytes: Int64)) {
        var done: [String: Int64] = [:]
        if let problem = loadAll(expecting: end) {
            position.applying = true
            rebuild(because: problem, done: &done)
        } else {
            for entry in catalog.segments where entry.stamp <= end.stamp {
                done[entry.stamp] = entry.stamp == end.stamp ? end.bytes : entry.rollup.bytes
            }
        }
        guard !stopping.load(ordering: .relaxed) else { return }
        // The last lines under the lock: the writer, not counting yet, waits here at its next chunk.
        handover.withLock { handover in
            let last = pass(&done, total: 0).last
            handover = Handover(ready: true, stamp: last.stamp, bytes: last.bytes)
        }
        publishNow()
    }

    /// Opens every tally; the reason they cannot be trusted, nil when they match the log's end.
    private func loadAll(expecting end: (stamp: String, bytes: Int64)) -> String? {
        guard !position.damaged else { return "their position file was damaged" }
        guard !position.applying else { return "the server stopped while applying events" }
        guard position.stamp == end.stamp, position.bytes == end.bytes else {
            return position.stamp.isEmpty && position.bytes == 0 ? "new" : "they end elsewhere than the log"
        }
        for file in Self.files(directory) {
            let name = String(file.dropLast(".tally".count))
            guard let tally = ExperimentTally.load(name: name, path: directory + "/" + file) else {
                return "\(file) is damaged or of an older format"
            }
            add(tally)
        }
        return nil
    }

    private static func files(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".tally") { names.append(name) }
        }
        return names.sorted()
    }

    private func add(_ tally: ExperimentTally) {
        byName[tally.name] = Int32(tallies.count)
        keys.append("experiment." + tally.name)
        tallies.append(tally)
    }

    /// Counts every line of the log again into new tallies, in passes until a pass finds little
    /// new (the writer goes on meanwhile); the rest is read under the handover's lock.
    private func rebuild(because problem: String, done: inout [String: Int64]) {
        tallies = []
        byName = [:]
        keys = []
        for file in Self.files(directory) { unlink(directory + "/" + file) }
        let total = catalog.segments.reduce(Int64(0)) { $0 + $1.rollup.bytes }
        var lines = 0
        while !stopping.load(ordering: .relaxed) {
            let (read, count, _) = pass(&done, total: total)
            lines += count
            if read < 1 << 20 { break }
        }
        if problem != "new" || lines > 0 {
            logger.log(level: problem == "new" ? .notice : .warning, "experiment tallies rebuilt from the report log",
                       metadata: ["reason": "\(problem)", "events": "\(lines)", "experiments": "\(tallies.count)"])
        }
    }

    /// Reads every segment from where `done` says it was read to its end as the catalog knows it
    /// now; returns the bytes and lines read and where the last segment it saw was read to (a
    /// segment opened after it looked is not read). With a `total`, publishes the progress.
    private func pass(_ done: inout [String: Int64], total: Int64) -> (bytes: Int64, lines: Int, last: (stamp: String, bytes: Int64)) {
        var read: Int64 = 0, lines = 0, last = ("", Int64(0))
        for stamp in catalog.segments.map(\.stamp) where !stopping.load(ordering: .relaxed) {
            let from = done[stamp] ?? 0
            let counted = count(stamp, from: from) { bytes in
                if total > 0 {
                    let sofar = done.values.reduce(0, +) + bytes - from
                    board.counting(progress: min(0.99, Double(sofar) / Double(total)))
                }
            }
            done[stamp] = counted.end
            read += counted.end - from
            lines += counted.lines
            last = (stamp, counted.end)
        }
        return (read, lines, last)
    }

    /// Counts the lines of segment `stamp` from byte `from` to its end as the catalog knows it;
    /// returns where it stopped and the lines counted.
    private func count(_ stamp: String, from: Int64, progress: (Int64) -> Void = { _ in }) -> (end: Int64, lines: Int) {
        // Maintenance may compress the segment meanwhile: the plain file then goes, so look it up
        // again (an open file stays readable).
        var opened: (SegmentEntry, SegmentLineReader)?
        for _ in 0..<5 where opened == nil {
            guard let entry = catalog.entry(stamp) else { break }
            guard entry.rollup.bytes > from else { return (max(from, entry.rollup.bytes), 0) }
            if let reader = try? SegmentLineReader(path: catalog.path(entry), compressed: entry.compressed, from: from,
                                                   end: entry.rollup.bytes, index: catalog.index(entry)) {
                opened = (entry, reader)
            }
        }
        guard let (entry, reader) = opened else { return (from, 0) }
        var lines = 0
        while let line = try? reader.next() {
            if let bytes = line.bytes, let event = try? bytes.withUnsafeBufferPointer({ try ReportEvent(parsing: $0) }) {
                record(event.name, event.properties, visitor: event.visitor.map(StableHash.hash), ms: ReportTimestamp.milliseconds(event.timestamp),
                       line: 0)
            }
            lines += 1
            if lines & 4095 == 0 {
                applyNotes()
                progress(line.offset)
                if stopping.load(ordering: .relaxed) { break }
            }
        }
        applyNotes()
        if !stopping.load(ordering: .relaxed) { position.set(stamp: entry.stamp, bytes: entry.rollup.bytes) }
        return (stopping.load(ordering: .relaxed) ? from : entry.rollup.bytes, lines)
    }

    /// Notes the experiments of the event at `line` of the chunk, once the writer counts.
    @inline(__always)
    func note(_ name: ReportEvent.Name, _ properties: [String: String], visitor: UInt64?, ms: Int64, line: Int) {
        guard live else { return }
        record(name, properties, visitor: visitor, ms: ms, line: line)
    }

    /// `note` for an event made from `template`: what its properties name is resolved once per
    /// template (`TallyGroups`, in slots by the template's address), not for each event.
    @inline(__always)
    func note(_ template: EventTemplate, visitor: UInt64?, ms: Int64, line: Int) {
        guard live, let visitor else { return }
        let key = ObjectIdentifier(template)
        let slot = Int((UInt(bitPattern: key) >> 4) & UInt(Self.templateSlots - 1))
        if slot >= templateKeys.count || templateKeys[slot] != key { resolve(template, slot: slot) }
        add(templateGroups[slot], visitor: visitor, ms: ms, line: line)
    }

    private func resolve(_ template: EventTemplate, slot: Int) {
        if templateKeys.isEmpty {
            templateKeys = Array(repeating: nil, count: Self.templateSlots)
            templateGroups = Array(repeating: TallyGroups(), count: Self.templateSlots)
            templates = Array(repeating: nil, count: Self.templateSlots)
        }
        templateKeys[slot] = ObjectIdentifier(template)
        templateGroups[slot] = groups(template.fixed.properties, kind: ExperimentTally.Kind(template.fixed.name))
        templates[slot] = template
    }

    @inline(__always)
    private func record(_ name: ReportEvent.Name, _ properties: [String: String], visitor: UInt64?, ms: Int64, line: Int) {
        guard let visitor, !properties.isEmpty else { return }
        add(groups(properties, kind: ExperimentTally.Kind(name)), visitor: visitor, ms: ms, line: line)
    }

    /// The tallies and groups an event's properties name, with its segment and `kind`. One pass over the
    /// properties, comparing keys with the tallies' `experiment.<name>` keys: no hashing, no new
    /// strings for a known experiment.
    private func groups(_ properties: [String: String], kind: ExperimentTally.Kind) -> TallyGroups {
        var found = TallyGroups(kind: kind)
        var legacyName: String?, legacyGroup: String?, device: String?, cohort: String?
        for (key, group) in properties {
            var tally = keys.firstIndex(of: key)
            if tally == nil {
                if key.utf8.count > 11, key.utf8.starts(with: "experiment.".utf8) {
                    tally = self.tally(String(key.dropFirst(11))).map(Int.init)
                } else if key == "experiment" {
                    legacyName = group
                } else if key == "group" {
                    legacyGroup = group
                } else if key == "device" {
                    device = group
                } else if key == "cohort" {
                    cohort = group
                } else if key == ReportEvent.qaMark {
                    // A QA visitor's forced group is no result: nothing of this event is noted.
                    return TallyGroups()
                }
            }
            if let tally, let index = tallies[tally].groupIndex(group) { found.groups.append((Int32(tally), index)) }
        }
        // The older form, unless the same experiment is also named the new way.
        if let legacyName, let legacyGroup, properties["experiment." + legacyName] == nil,
            let tally = tally(legacyName), let index = tallies[Int(tally)].groupIndex(legacyGroup) {
            found.groups.append((tally, index))
        }
        found.segment = UInt8(VisitorSegment(device: device, cohort: cohort).index)
        return found
    }

    /// Notes an event in each of `found`'s groups. The segment and day are kept for a visitor's
    /// first exposure only (the tally ignores them afterwards).
    @inline(__always)
    private func add(_ found: borrowing TallyGroups, visitor: UInt64, ms: Int64, line: Int) {
        guard !found.groups.isEmpty else { return }
        let day = UInt16(clamping: ReportTimestamp.floorDiv(ms, ReportTimestamp.msPerDay))
        for index in found.groups.indices {
            notes.append(Note(tally: found.groups[index].tally, group: found.groups[index].group, kind: found.kind,
                              segment: found.segment, day: day, line: Int32(truncatingIfNeeded: line), visitor: visitor))
        }
    }

    private func tally(_ name: String) -> Int32? {
        if let index = byName[name] { return index }
        guard !refused.contains(name) else { return nil }
        guard tallies.count < Self.maxExperiments, TallyPosition.isFileName(name),
            let tally = ExperimentTally.create(name: name, path: directory + "/" + name + ".tally")
        else {
            // Remembered so it is logged once, up to a bound (names come from the events).
            guard refused.count < 1000 else { return nil }
            refused.insert(name)
            logger.warning("experiment not tallied", metadata: [
                "experiment": "\(name.prefix(64))",
                "reason": "\(tallies.count >= Self.maxExperiments ? "more than \(Self.maxExperiments) experiments" : "name or file")",
            ])
            return nil
        }
        add(tally)
        return Int32(tallies.count - 1)
    }

    /// Keeps the notes of the first `lines` lines of the chunk only (the rest was not written).
    /// Until the writer counts, the notes are the preparing thread's: not the writer's to touch.
    func keep(lines: Int) {
        if live { notes.removeAll { Int($0.line) >= lines } }
    }

    /// Forgets the chunk's notes (it was not written).
    func discard() {
        if live { notes.removeAll(keepingCapacity: true) }
    }

    private func applyNotes() {
        guard !notes.isEmpty else { return }
        position.applying = true
        for note in notes {
            tallies[Int(note.tally)].add(visitor: note.visitor, group: note.group, kind: note.kind, day: note.day,
                                         segment: note.segment)
        }
        notes.removeAll(keepingCapacity: true)
    }

    /// Applies the chunk's notes, now that the log holds them through `bytes` of segment `stamp`.
    /// Before the writer counts, takes the tallies over once they are ready.
    func apply(stamp: String, bytes: Int64) {
        guard live || takeOver(stamp: stamp, bytes: bytes) else { return }
        applyNotes()
        position.set(stamp: stale ? "" : stamp, bytes: stale ? -1 : bytes)
    }

    /// The writer takes the tallies once the preparing thread is done, counting the lines written
    /// since it stopped reading; false while they are not ready.
    @discardableResult
    private func takeOver(stamp: String, bytes: Int64) -> Bool {
        guard let from = handover.withLock({ $0.ready ? ($0.stamp, $0.bytes) : nil }) else { return false }
        preparer?.join()
        preparer = nil
        for entry in catalog.segments where entry.stamp >= from.0 {
            _ = count(entry.stamp, from: entry.stamp == from.0 ? from.1 : 0)
        }
        live = true
        return true
    }

    /// The log no longer holds what was applied: rebuild at the next start.
    func markStale() {
        stale = true
        if live { position.set(stamp: "", bytes: -1) }
    }

    /// Shows the sums to the report pages, once the writer counts (the preparing thread shows its
    /// own when it is done).
    func publish() {
        if live { publishNow() }
    }

    private func publishNow() {
        board.publish(Dictionary(tallies.map { ($0.name, $0.visitors) }, uniquingKeysWith: { first, _ in first }))
    }
}

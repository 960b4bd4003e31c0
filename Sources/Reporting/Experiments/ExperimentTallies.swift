import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer's side of the experiment tallies (`ExperimentTally`, one per experiment in
/// `<log>/experiments/`): each event's experiments are noted as the line goes into the chunk, and
/// applied once the chunk is on disk, the lines that made it only, so the tallies say exactly
/// what the log holds. `position` records how far the log has been applied; a tally that does not
/// match the log (missing, damaged, or a crash while applying) is rebuilt from the log at start.
final class ExperimentTallies {
    struct Note {
        let tally: Int32
        let group: UInt8
        let kind: ExperimentTally.Kind
        let line: Int32
        let visitor: UInt64
    }

    /// Experiments tallied at most; the toggles allow 32 active at once.
    static let maxExperiments = 64

    let directory: String
    let board: ExperimentTallyBoard
    let logger: Logger
    // Only the writer's thread touches the tallies: no exclusivity checks on the hot path.
    @exclusivity(unchecked) private var tallies: [ExperimentTally] = []
    private var byName: [String: Int32] = [:]
    /// `experiment.<name>` of each tally, in the tallies' order.
    @exclusivity(unchecked) private var keys: [String] = []
    @exclusivity(unchecked) private var notes: [Note] = []
    private var position: TallyPosition
    private var refused: Set<String> = []
    /// The log changed under the writer (a segment deleted or rewritten by hand): the tallies are
    /// rebuilt at the next start.
    private var stale = false

    private init(directory: String, board: ExperimentTallyBoard, logger: Logger, position: TallyPosition) {
        self.directory = directory
        self.board = board
        self.logger = logger
        self.position = position
    }

    /// The tallies of the log in `catalog`, rebuilt from the log when they do not match it; nil
    /// (no tallies, logged) when the directory cannot be written.
    static func open(catalog: SegmentCatalog, logger: Logger) -> ExperimentTallies? {
        let directory = catalog.directory + "/experiments"
        _ = mkdir(directory, 0o755)
        guard let position = TallyPosition(path: directory + "/position") else {
            logger.error("experiment tallies unavailable: cannot write", metadata: ["directory": "\(directory)"])
            return nil
        }
        let tallies = ExperimentTallies(directory: directory, board: catalog.experimentTallies, logger: logger, position: position)
        let end = catalog.segments.last.map { ($0.stamp, $0.rollup.bytes) } ?? ("", 0)
        if let problem = tallies.loadAll(expecting: end) {
            tallies.rebuild(catalog, because: problem)
        }
        tallies.publish()
        return tallies
    }

    /// Opens every tally; the reason they cannot be trusted, nil when they match the log's end.
    private func loadAll(expecting end: (stamp: String, bytes: Int64)) -> String? {
        guard !position.applying else { return "the server stopped while applying events" }
        guard position.stamp == end.stamp, position.bytes == end.bytes else {
            return position.stamp.isEmpty && position.bytes == 0 ? "new" : "they end elsewhere than the log"
        }
        for file in Self.files(directory) {
            let name = String(file.dropLast(".tally".count))
            guard let tally = ExperimentTally.load(name: name, path: directory + "/" + file) else {
                return "\(file) is damaged"
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

    /// Counts every line of the log again into new tallies.
    private func rebuild(_ catalog: SegmentCatalog, because problem: String) {
        tallies = []
        byName = [:]
        keys = []
        for file in Self.files(directory) { unlink(directory + "/" + file) }
        var lines = 0
        for stamp in catalog.segments.map(\.stamp) {
            // Maintenance may compress the segment meanwhile: the plain file then goes, so look it
            // up again (an open file stays readable).
            var opened: (SegmentEntry, SegmentLineReader)?
            for _ in 0..<5 where opened == nil {
                guard let entry = catalog.entry(stamp) else { break }
                if let reader = try? SegmentLineReader(path: catalog.path(entry), compressed: entry.compressed, end: entry.rollup.bytes) {
                    opened = (entry, reader)
                }
            }
            guard let (entry, reader) = opened else { continue }
            while let line = try? reader.next() {
                guard let bytes = line.bytes,
                    var event = try? bytes.withUnsafeBufferPointer({ try ReportEvent(parsing: $0) })
                else { continue }
                note(&event, visitor: event.visitor.map(HyperLogLog.hash), line: 0)
                apply(stamp: entry.stamp, bytes: entry.rollup.bytes)
                lines += 1
            }
            apply(stamp: entry.stamp, bytes: entry.rollup.bytes)
        }
        if problem != "new" || lines > 0 {
            logger.log(level: problem == "new" ? .notice : .warning, "experiment tallies rebuilt from the report log",
                          metadata: ["reason": "\(problem)", "events": "\(lines)", "experiments": "\(tallies.count)"])
        }
    }

    /// Notes the experiments of the event at `line` of the chunk. One pass over the properties,
    /// comparing keys with the tallies' `experiment.<name>` keys: no hashing, no new strings (this
    /// runs on the writer's thread for every event).
    @inline(__always)
    func note(_ event: inout ReportEvent, visitor: UInt64?, line: Int) {
        guard let visitor, !event.properties.isEmpty else { return }
        let kind: ExperimentTally.Kind = switch event.name {
        case .launch: .view
        case .longSelected: .long
        case .shortSelected: .short
        case .streamSelected: .stream
        default: .exposure
        }
        var legacyName: String?, legacyGroup: String?
        let first = notes.count
        for (key, group) in event.properties {
            var found = keys.firstIndex(of: key)
            if found == nil {
                if key.utf8.count > 11, key.utf8.starts(with: "experiment.".utf8) {
                    found = tally(String(key.dropFirst(11))).map(Int.init)
                } else if key == "experiment" {
                    legacyName = group
                } else if key == "group" {
                    legacyGroup = group
                } else if key == ReportEvent.qaMark {
                    // A QA visitor's forced group is no result: drop what this event noted.
                    notes.removeSubrange(first...)
                    return
                }
            }
            if let found { add(tally: found, group: group, kind: kind, line: line, visitor: visitor) }
        }
        // The older form, unless the same experiment is also named the new way.
        if let legacyName, let legacyGroup, event.properties["experiment." + legacyName] == nil,
            let found = tally(legacyName) {
            add(tally: Int(found), group: legacyGroup, kind: kind, line: line, visitor: visitor)
        }
    }

    @inline(__always)
    private func add(tally: Int, group: String, kind: ExperimentTally.Kind, line: Int, visitor: UInt64) {
        guard let index = tallies[tally].groupIndex(group) else { return }
        notes.append(Note(tally: Int32(tally), group: index, kind: kind, line: Int32(truncatingIfNeeded: line), visitor: visitor))
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
    func keep(lines: Int) { notes.removeAll { Int($0.line) >= lines } }

    /// Forgets the chunk's notes (it was not written).
    func discard() { notes.removeAll(keepingCapacity: true) }

    /// Applies the chunk's notes, now that the log holds them through `bytes` of segment `stamp`.
    func apply(stamp: String, bytes: Int64) {
        if !notes.isEmpty {
            position.applying = true
            for note in notes { tallies[Int(note.tally)].add(visitor: note.visitor, group: note.group, kind: note.kind) }
            notes.removeAll(keepingCapacity: true)
        }
        position.set(stamp: stale ? "" : stamp, bytes: stale ? -1 : bytes)
    }

    /// The log no longer holds what was applied: rebuild at the next start.
    func markStale() {
        stale = true
        position.set(stamp: "", bytes: -1)
    }

    /// Shows the sums to the report pages.
    func publish() {
        board.publish(Dictionary(tallies.map { ($0.name, $0.visitors) }, uniquingKeysWith: { first, _ in first }))
    }
}

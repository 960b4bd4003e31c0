import Basics

/// What a run of events changes in each experiment visitor's record, keyed by experiment and
/// visitor hash, for a store that keeps the visitors elsewhere (the report database): counted
/// with the tallies' rules (`VisitorRecord`, `VisitorSegment`, the day of first exposure), then
/// merged with what is stored by `merged(into:)`, and the change of each visitor's sums added to
/// their cell. The group, segment and day are those of the visitor's earliest event carrying the
/// experiment, whichever instance shipped it first; the local tallies' "first in the log" is the
/// same rule, a log's times only ever rising.
public struct VisitorChanges: Sendable {
    public struct Key: Hashable, Sendable {
        public let experiment: String
        public let visitor: UInt64

        public init(experiment: String, visitor: UInt64) {
            self.experiment = experiment
            self.visitor = visitor
        }
    }

    public struct Entry: Sendable, Equatable {
        public var group: String
        public var segment: VisitorSegment
        /// The UTC day of `firstMs`, days since 1970.
        public var day: Int32
        public var firstMs: Int64
        public var record: VisitorRecord

        public init(group: String, segment: VisitorSegment, day: Int32, firstMs: Int64, record: VisitorRecord) {
            self.group = group
            self.segment = segment
            self.day = day
            self.firstMs = firstMs
            self.record = record
        }

        /// The cell the visitor's sums go to.
        public var cell: Cell { Cell(group: group, segment: segment, day: day) }
    }

    public struct Cell: Hashable, Sendable {
        public let group: String
        public let segment: VisitorSegment
        public let day: Int32
    }

    public private(set) var entries: [Key: Entry] = [:]

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    /// Room for `visitors` entries at once: growing a table of tens of thousands step by step
    /// rehashes every entry again at each step.
    public mutating func reserveCapacity(_ visitors: Int) { entries.reserveCapacity(visitors) }

    /// Counts one event under every experiment its properties name; events without a visitor count nothing.
    public mutating func add(ms: Int64, name: ReportEvent.Name, visitor: String?, properties: [String: String]) {
        guard let visitor, !properties.isEmpty else { return }
        let hash = StableHash.hash(visitor)
        let kind = VisitorRecord.Kind(name)
        ReportEvent.forEachExperiment(in: properties) { experiment, group in
            // One lookup, new or not: a new entry's exposure is later than any event's.
            Self.count(&entries[Key(experiment: experiment, visitor: hash), default: Self.unseen], kind, ms: ms, group: group,
                       properties: properties)
        }
    }

    /// A visitor without events yet: the first event counted sets the group, segment and day.
    private static let unseen = Entry(group: "", segment: VisitorSegment(), day: 0, firstMs: .max, record: VisitorRecord())

    @inline(__always)
    private static func count(_ entry: inout Entry, _ kind: VisitorRecord.Kind, ms: Int64, group: String,
                              properties: [String: String])
    {
        if ms < entry.firstMs {
            // The first event, or one out of order (an import): the earlier event decides where the visitor counts.
            entry.group = group
            entry.segment = VisitorSegment(device: properties["device"], cohort: properties["cohort"])
            entry.day = Int32(ReportTimestamp.floorDiv(ms, ReportTimestamp.msPerDay))
            entry.firstMs = ms
        }
        entry.record.count(kind)
    }

    /// This run's entry for a visitor combined with the stored one: the earlier exposure decides
    /// the group, segment and day (the stored one on a tie); the counts add up.
    public static func merge(stored: Entry, new: Entry) -> Entry {
        var merged = new.firstMs < stored.firstMs ? new : stored
        merged.record = stored.record
        merged.record.merge(new.record)
        return merged
    }

    /// The change of every cell's sums when `stored` (nil for a visitor not yet seen) becomes `merged`.
    public static func change(from stored: Entry?, to merged: Entry, into cells: inout [Cell: VisitorSums]) {
        if let stored { cells[stored.cell, default: VisitorSums()].subtract(stored.record.sums) }
        cells[merged.cell, default: VisitorSums()].add(merged.record.sums)
    }
}

/// One experiment's exact visitor sums per group, in the order the groups were first met, and the
/// same sums cut by segment and by the UTC day of each visitor's first exposure (`cells`), so a
/// page reads any segment and any range of days by adding a few cells.
public struct ExperimentVisitors: Sendable, Equatable {
    public let name: String
    public let groups: [(group: String, sums: VisitorSums)]
    /// Events of groups beyond the tally's limit, not counted.
    public let uncountedGroups: Bool
    /// Day of first exposure (days since 1970-01-01, UTC) → sums per group × segment, at index
    /// `group * VisitorSegment.count + segment.index`; a row ends with the last group it has
    /// visitors of. Every visitor is in exactly one cell, so each group's sums are the sum of its cells.
    public let cells: [Int32: [VisitorSums]]

    public init(name: String, groups: [(group: String, sums: VisitorSums)], uncountedGroups: Bool = false,
                cells: [Int32: [VisitorSums]] = [:]) {
        self.name = name
        self.groups = groups
        self.uncountedGroups = uncountedGroups
        self.cells = cells
    }

    public func sums(_ group: String) -> VisitorSums? { groups.first { $0.group == group }?.sums }

    /// The sums of the visitors of `segment` first exposed on a day in `days` (all days when nil).
    public func filtered(_ segment: VisitorSegmentFilter, days: Range<Int32>? = nil) -> ExperimentVisitors {
        if segment == .all && days == nil { return self }
        var sums = [VisitorSums](repeating: VisitorSums(), count: groups.count)
        for (day, row) in cells where days?.contains(day) ?? true {
            for index in row.indices where segment.contains(VisitorSegment(index: index % VisitorSegment.count)) {
                let group = index / VisitorSegment.count
                if group < sums.count { sums[group].add(row[index]) }
            }
        }
        return ExperimentVisitors(name: name, groups: zip(groups, sums).map { ($0.group, $1) }, uncountedGroups: uncountedGroups,
                                  cells: [:])
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.uncountedGroups == rhs.uncountedGroups && lhs.groups.count == rhs.groups.count
            && zip(lhs.groups, rhs.groups).allSatisfy { $0.group == $1.group && $0.sums == $1.sums }
    }
}

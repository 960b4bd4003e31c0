/// One experiment's exact visitor sums per group, in the order the groups were first met.
public struct ExperimentVisitors: Sendable, Equatable {
    public let name: String
    public let groups: [(group: String, sums: VisitorSums)]
    /// Events of groups beyond the tally's limit, not counted.
    public let uncountedGroups: Bool

    public init(name: String, groups: [(group: String, sums: VisitorSums)], uncountedGroups: Bool = false) {
        self.name = name
        self.groups = groups
        self.uncountedGroups = uncountedGroups
    }

    public func sums(_ group: String) -> VisitorSums? { groups.first { $0.group == group }?.sums }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.uncountedGroups == rhs.uncountedGroups && lhs.groups.count == rhs.groups.count
            && zip(lhs.groups, rhs.groups).allSatisfy { $0.group == $1.group && $0.sums == $1.sums }
    }
}

/// What the toggles decide for one visitor, made once per request: each active experiment's group
/// is hashed once, and the layout, the notice and the report tags all follow from those groups.
public struct VisitorPlan: Sendable, Equatable {
    /// The visitor's group in every active experiment, in file order.
    public let assignments: [FeatureDecisions.Assignment]
    /// The layout when the visitor has not chosen one: their experiment group's, else their
    /// rollout's, else the default. Worked out when asked: a visit that names its layout never needs it.
    public var layout: String {
        assignedLayout ?? FeatureDecisions.rolloutLayout(in: rollout, for: visitor) ?? defaultLayout
    }
    /// Whether the onboarding notice is shown (unless dismissed).
    public let showsOnboarding: Bool
    /// The layout an experiment assigned, if one did: what a visitor's own choice is reported against.
    public let assignedLayout: String?
    /// The home's rows switched off for this visitor (by the `rows` toggle or their groups).
    public let hiddenRows: Set<String>

    /// The two toggles `layout` reads, not the whole toggles: a plan is copied with every visit.
    private let rollout: [String: Double]
    private let defaultLayout: String
    private let visitor: String

    init(decisions: FeatureDecisions, visitor: String) {
        // Read through one local: each `decisions.toggles.x` copied the whole toggles.
        let toggles = decisions.toggles
        rollout = toggles.rollout
        defaultLayout = toggles.defaultLayout
        self.visitor = visitor
        assignments = toggles.experiments.isEmpty ? [] : decisions.assignments(for: visitor)
        // Validation lets at most one active experiment set each of these.
        assignedLayout = assignments.lazy.compactMap(\.group.layout).first
        showsOnboarding = assignments.lazy.compactMap(\.group.onboarding).first ?? toggles.onboarding
        hiddenRows = Self.hiddenRows(toggles.rows, assignments)
    }

    /// The rows off: the toggle's, with the groups' over them (validation lets one group switch each).
    private static func hiddenRows(_ rows: [String: Bool], _ assignments: [FeatureDecisions.Assignment]) -> Set<String> {
        var hidden: Set<String> = []
        if rows.isEmpty && !assignments.contains(where: { !$0.group.rows.isEmpty }) { return hidden }
        for (row, shown) in rows where !shown { hidden.insert(row) }
        for assignment in assignments {
            for (row, shown) in assignment.group.rows {
                if shown { hidden.remove(row) } else { hidden.insert(row) }
            }
        }
        return hidden
    }
}

/// What the toggles decide for one visitor, made once per request: each active experiment's group
/// is hashed once, and the layout, the notice and the report tags all follow from those groups.
public struct VisitorPlan: Sendable, Equatable {
    /// The visitor's group in every active experiment that takes them in, in file order.
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
    /// The layout a QA override forces, above the visitor's own choice; nil without one.
    public let forcedLayout: String?
    /// The home's rows switched off for this visitor (by the `rows` toggle or their groups).
    public let hiddenRows: Set<String>

    /// The two toggles `layout` reads, not the whole toggles: a plan is copied with every visit.
    private let rollout: [String: Double]
    private let defaultLayout: String
    private let visitor: String

    init(decisions: FeatureDecisions, visitor: String, traits: VisitorTraits, override: Override?) {
        let prepared = decisions.prepared
        let toggles = prepared.toggles
        rollout = toggles.rollout
        defaultLayout = toggles.defaultLayout
        self.visitor = visitor
        var assignments: [FeatureDecisions.Assignment] = []
        for experiment in prepared.activeExperiments {
            let group: Toggles.Group?
            if case .group(experiment.name, let forced)? = override, let named = experiment.groups.first(where: { $0.name == forced }) {
                group = named
            } else {
                group = experiment.assignment(for: visitor, traits: traits)
            }
            if let group { assignments.append(FeatureDecisions.Assignment(experiment: experiment.name, group: group)) }
        }
        self.assignments = assignments
        // Validation lets at most one active experiment set each of these for any one visitor
        // (more only in one namespace, whose ranges do not overlap); an allowlist or override
        // may still put a visitor in two, and then the first in the file wins.
        assignedLayout = assignments.lazy.compactMap(\.group.layout).first
        showsOnboarding = assignments.lazy.compactMap(\.group.onboarding).first ?? toggles.onboarding
        if case .layout(let layout)? = override { forcedLayout = layout } else { forcedLayout = nil }
        hiddenRows = Self.hiddenRows(prepared.hiddenRows, assignments)
    }

    /// The rows off: the toggle's, with the groups' over them (validation lets one group switch each).
    private static func hiddenRows(_ toggled: Set<String>, _ assignments: [FeatureDecisions.Assignment]) -> Set<String> {
        if !assignments.contains(where: { !$0.group.rows.isEmpty }) { return toggled }
        var hidden = toggled
        for assignment in assignments {
            for (row, shown) in assignment.group.rows {
                if shown { hidden.remove(row) } else { hidden.insert(row) }
            }
        }
        return hidden
    }

    /// What a QA link forces for the person who opened it, until it expires.
    public enum Override: Sendable, Equatable {
        /// The group of one experiment (its layout and notice follow).
        case group(experiment: String, group: String)
        /// A layout, whatever the experiments, the rollout or the visitor's choice say.
        case layout(String)
    }
}

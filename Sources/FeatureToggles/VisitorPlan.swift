import Basics

/// What the toggles decide for one visitor, made once per request: each active experiment's group
/// is hashed once, and the layout, the notice and the report tags all follow from those groups.
public struct VisitorPlan: Sendable, Equatable {
    /// What follows from the groups, one reference: a visitor in no experiment and without an
    /// override shares the one made once per toggles version (`FeatureDecisions.Prepared`), so a
    /// request neither builds nor retains and releases it field by field.
    private let decided: Decided
    /// Only `layout` (the rollout) and the experiments read it: as given, spelled out only then.
    private let visitor: Visitor

    /// The visitor's group in every active experiment that takes them in, in file order.
    public var assignments: [FeatureDecisions.Assignment] { decided.assignments }
    /// Whether the visitor is in some experiment, without a copy of `assignments`.
    public var isAssigned: Bool { !decided.assignments.isEmpty }
    /// The layout when the visitor has not chosen one: their experiment group's, else their
    /// rollout's, else the default. Worked out when asked: a visit that names its layout never needs it.
    public var layout: String {
        assignedLayout ?? (decided.rollout.isEmpty ? nil : FeatureDecisions.rolloutLayout(in: decided.rollout, for: visitor.text)) ?? decided.defaultLayout
    }
    /// Whether the onboarding notice is shown (unless dismissed).
    public var showsOnboarding: Bool { decided.showsOnboarding }
    /// The layout an experiment assigned, if one did: what a visitor's own choice is reported against.
    public var assignedLayout: String? { decided.assignedLayout }
    /// The layout a QA override forces, above the visitor's own choice; nil without one.
    public var forcedLayout: String? { decided.forcedLayout }
    /// The home's rows switched off for this visitor (by the `rows` toggle or their groups).
    public var hiddenRows: Set<String> { decided.hiddenRows }

    /// Whether `row` is switched off for this visitor, without a copy of `hiddenRows`.
    public func hides(_ row: String) -> Bool { decided.hiddenRows.contains(row) }

    init(decisions: FeatureDecisions, visitor: Visitor, traits: borrowing VisitorTraits, override: borrowing Override?) {
        let prepared = decisions.prepared
        self.visitor = visitor
        // Most visitors: no experiment running, no override; the plan made once for them.
        if prepared.activeExperiments.isEmpty, override == nil {
            decided = prepared.unassigned
            return
        }
        // Without an override the groups pick one of the decisions made once.
        if override == nil, let shared = prepared.sharedDecision(for: visitor, traits: traits) {
            decided = shared
            return
        }
        var assignments: [FeatureDecisions.Assignment] = []
        let experiments = prepared.activeExperiments
        for index in experiments.indices {
            let group: Int?
            if override != nil, case .group(let name, let forced)? = copy override, name == experiments[index].name,
                let named = experiments[index].groups.firstIndex(where: { $0.name == forced }) {
                group = named
            } else {
                group = prepared.group(index, of: visitor, traits: traits)
            }
            if let group {
                assignments.append(FeatureDecisions.Assignment(experiment: experiments[index].name,
                                                               group: experiments[index].groups[group]))
            }
        }
        decided = assignments.isEmpty && override == nil
            ? prepared.unassigned
            : Decided(toggles: prepared.toggles, toggled: prepared.hiddenRows, assignments, copy override, isShared: false)
    }

    /// The decision this visitor shares with every visitor in the same groups, made once per
    /// toggles version; nil when it was made for them alone (a QA override, or more combinations
    /// of groups than are made ahead). Kept by what caches by it, its identity stands for the groups.
    public var shared: (AnyObject & Sendable)? { decided.isShared ? decided : nil }

    /// The identity of `shared`, for a look-up: read without retaining the decision.
    public var sharedIdentity: ObjectIdentifier? { decided.isShared ? ObjectIdentifier(decided) : nil }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.visitor.text == rhs.visitor.text && (lhs.decided === rhs.decided || lhs.decided == rhs.decided)
    }

    /// The visitor as the caller knows them: an id from a cookie, or any text (tools, tests).
    enum Visitor: Sendable {
        case text(String)
        case id(VisitorID)

        /// What the groups and the rollout hash: the id's 32 digits.
        var text: String {
            switch self {
            case .text(let text): text
            case .id(let id): id.text
            }
        }
    }

    /// What the toggles and the visitor's groups decide, but the visitor's rollout.
    final class Decided: Sendable, Equatable {
        let assignments: [FeatureDecisions.Assignment]
        let showsOnboarding: Bool
        let assignedLayout: String?
        let forcedLayout: String?
        let hiddenRows: Set<String>
        /// The two toggles `layout` reads, not the whole toggles.
        let rollout: [String: Double]
        let defaultLayout: String
        /// Made once per toggles for every visitor in these groups (`FeatureDecisions.Prepared.shared`).
        let isShared: Bool

        init(toggles: Toggles, toggled: Set<String>, _ assignments: [FeatureDecisions.Assignment], _ override: Override?,
             isShared: Bool) {
            self.isShared = isShared
            self.assignments = assignments
            rollout = toggles.rollout
            defaultLayout = toggles.defaultLayout
            // Validation lets at most one active experiment set each of these for any one visitor
            // (more only in one namespace, whose ranges do not overlap); an allowlist or override
            // may still put a visitor in two, and then the first in the file wins.
            assignedLayout = assignments.lazy.compactMap(\.group.layout).first
            showsOnboarding = assignments.lazy.compactMap(\.group.onboarding).first ?? toggles.onboarding
            if case .layout(let layout)? = override { forcedLayout = layout } else { forcedLayout = nil }
            hiddenRows = VisitorPlan.hiddenRows(toggled, assignments)
        }

        static func == (lhs: Decided, rhs: Decided) -> Bool {
            lhs.assignments == rhs.assignments && lhs.showsOnboarding == rhs.showsOnboarding
                && lhs.assignedLayout == rhs.assignedLayout && lhs.forcedLayout == rhs.forcedLayout
                && lhs.hiddenRows == rhs.hiddenRows && lhs.rollout == rhs.rollout && lhs.defaultLayout == rhs.defaultLayout
        }
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

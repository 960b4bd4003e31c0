import Basics

extension Toggles {
    /// An experiment: each visitor is in one of `groups` (stably, by weight), and a group may decide
    /// the visitor's layout and whether they see the onboarding notice.
    public struct Experiment: Sendable, Equatable {
        /// The experiment's name: salts the assignment (renaming reshuffles visitors) and names the
        /// report property `experiment.<name>`.
        public var name: String
        /// Whether visitors are assigned now; a stopped experiment keeps its results in the report log.
        public var active: Bool
        /// The groups, at least two, with different names.
        public var groups: [Group]
        /// Which visitors it takes in (everyone when empty).
        public var targeting = Targeting()
        /// The namespace range it takes its visitors from, if it shares a layer with others.
        public var namespace: Namespace?
        /// The margins of the guardrail metrics as the file sets them; nil: the standard ones.
        public var guardrail: Guardrail?

        /// The margins the report page checks.
        public var guardrailMargins: Guardrail { guardrail ?? .standard }

        /// Creates an experiment.
        public init(name: String, active: Bool = true, groups: [Group], targeting: Targeting = Targeting(),
                    namespace: Namespace? = nil) {
            self.name = name
            self.active = active
            self.groups = groups
            self.targeting = targeting
            self.namespace = namespace
        }

        /// A tagging-only experiment with equal groups (the older `experiment` field).
        public init(name: String, groups: [String]) {
            self.init(name: name, groups: groups.map { Group(name: $0) })
        }

        /// Whether some group decides the layout.
        public var setsLayout: Bool { groups.contains { $0.layout != nil } }

        /// Whether some group decides the onboarding notice.
        public var setsOnboarding: Bool { groups.contains { $0.onboarding != nil } }

        /// Whether some group lists visitors of its own.
        var hasAllowlist: Bool { groups.contains { !$0.visitors.isEmpty } }

        /// The group of `visitor` in this experiment, or nil when they are not in it. An allowlist
        /// comes first (an operator named them), then the namespace range, then the targeting,
        /// then the hash.
        public func assignment(for visitor: String, traits: VisitorTraits) -> Group? {
            var weights: [Double] = []
            let split = ExperimentSplit(self, weights: &weights)
            return groupIndex(for: .text(visitor), split: split, weights: weights, traits: traits).map { groups[$0] }
        }

        /// `assignment(for:traits:)` as the group's index, for a visitor as the caller knows them,
        /// with this experiment's split (made once per toggles by the caller).
        func groupIndex(for visitor: VisitorPlan.Visitor, split: ExperimentSplit, weights: [Double],
                        traits: borrowing VisitorTraits) -> Int? {
            // Spelled out only for the allowlist and the namespace: the hash reads an id's digits.
            if hasAllowlist || namespace != nil {
                let text = visitor.text
                if hasAllowlist, let listed = groups.firstIndex(where: { $0.visitors.contains(text) }) { return listed }
                if let namespace, !namespace.contains(text) { return nil }
            }
            if !targeting.matches(traits) { return nil }
            return split.group(of: visitor, weights: weights)
        }

        /// The group of `visitor`: a stable position in [0, 1) salted by the experiment's name, cut
        /// into spans as wide as the groups' weights.
        public func group(for visitor: String) -> Group {
            let weights = groups.lazy.map(\.weight)
            return groups[ExperimentSplit.group(at: StableHash.unitInterval("experiment\u{0}" + name + "\u{0}" + visitor),
                                                weights: weights, total: ExperimentSplit.total(of: weights))]
        }

        /// The hash's state after `experiment␀<name>␀`, where every visitor's position goes on from.
        var salt: UInt64 { StableHash.fnv1a("experiment\u{0}" + name + "\u{0}") }
    }

    /// A group of an experiment and what its visitors get.
    public struct Group: Sendable, Equatable {
        /// The group's name, reported as the value of `experiment.<name>`.
        public var name: String
        /// Its share relative to the other groups' weights; greater than 0.
        public var weight: Double
        /// The layout its visitors get unless they chose one; nil leaves the layout to the rollout and default.
        public var layout: String?
        /// Whether its visitors see the onboarding notice; nil leaves it to the `onboarding` toggle.
        public var onboarding: Bool?
        /// Visitor ids always in this group, whatever the hash, namespace or targeting say (QA, staff).
        public var visitors: [String] = []
        /// Rows its visitors get switched on or off (row name → shown), over the `rows` toggle.
        public var rows: [String: Bool]

        /// Creates a group.
        public init(name: String, weight: Double = 1, layout: String? = nil, onboarding: Bool? = nil, visitors: [String] = [],
                    rows: [String: Bool] = [:]) {
            self.name = name
            self.weight = weight
            self.layout = layout
            self.onboarding = onboarding
            self.visitors = visitors
            self.rows = rows
        }
    }
}

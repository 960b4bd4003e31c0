import Basics

/// The one place where toggles become decisions for a visitor. What does not depend on the
/// visitor (the active experiments, what their targeting reads, the rows the toggle hides) is
/// worked out once per toggles (`ToggleRouter` keeps one per version), not once per request.
public struct FeatureDecisions: Sendable, Equatable {
    /// One reference: a copy costs one reference count, not one per field of the toggles.
    let prepared: Prepared

    /// The toggles deciding.
    public var toggles: Toggles { prepared.toggles }

    /// Decides from a snapshot of the toggles.
    public init(toggles: Toggles) {
        prepared = Prepared(toggles)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.prepared === rhs.prepared || lhs.prepared.toggles == rhs.prepared.toggles
    }

    /// The toggles with what follows from them for every visitor.
    final class Prepared: Sendable {
        let toggles: Toggles
        let activeExperiments: [Toggles.Experiment]
        let targeted: Targeted
        /// The rows the `rows` toggle switches off: a visitor in no group that switches rows sees these.
        let hiddenRows: Set<String>
        /// The plan of every visitor in no experiment and without an override (most of them).
        let unassigned: VisitorPlan.Decided
        /// What hashing a visitor into each active experiment reads, in the same order, and
        /// their groups' weights (`ExperimentSplit.weights` lie in it).
        let splits: [ExperimentSplit]
        let weights: [Double]
        /// The decision of every combination of groups a visitor without an override can be in,
        /// made once so that visitors in the same groups share one: by each experiment's group
        /// index plus one (0: not in it), digits in file order, each counting to the groups plus
        /// one. Empty when there are more than `sharedLimit` combinations: each is then made per visitor.
        let shared: [VisitorPlan.Decided]
        static let sharedLimit = 256
        /// Recent visitors' places in `shared`, while no experiment looks at more than the id
        /// (an allowlist, a namespace or targeting: their groups may change with the request).
        let recent: RecentGroups?

        init(_ toggles: Toggles) {
            self.toggles = toggles
            activeExperiments = toggles.experiments.filter(\.active)
            var targeted = Targeted()
            for experiment in activeExperiments where !experiment.targeting.isEmpty {
                targeted.device = targeted.device || !experiment.targeting.devices.isEmpty
                targeted.language = targeted.language || !experiment.targeting.languages.isEmpty
                targeted.chosenLayout = targeted.chosenLayout || experiment.targeting.chosenLayout != nil
            }
            self.targeted = targeted
            hiddenRows = Set(toggles.rows.filter { !$0.value }.keys)
            unassigned = VisitorPlan.Decided(toggles: toggles, toggled: hiddenRows, [], nil, isShared: true)
            var weights: [Double] = []
            splits = activeExperiments.map { ExperimentSplit($0, weights: &weights) }
            self.weights = weights
            shared = Self.combinations(activeExperiments, toggles: toggles, toggled: hiddenRows, unassigned: unassigned)
            recent = shared.count > 1 && !splits.contains(where: \.screens) ? RecentGroups() : nil
        }

        /// The decision a visitor without an override shares with everyone in their groups; nil
        /// when none are made ahead. Read in place: a copy of the splits, the weights or the
        /// experiments for the loop cost a reference count each.
        func sharedDecision(for visitor: VisitorPlan.Visitor, traits: borrowing VisitorTraits) -> VisitorPlan.Decided? {
            if shared.isEmpty { return nil }
            // Through the optional, not bound: a binding retained and released the table.
            guard recent != nil, case .id(let id) = visitor else { return shared[combination(of: visitor, traits: traits)] }
            if let kept = recent?.combination(of: id) { return shared[kept] }
            let combination = combination(of: visitor, traits: traits)
            recent?.keep(combination, for: id)
            return shared[combination]
        }

        /// The visitor's place in `shared`: their group in each experiment, hashed.
        func combination(of visitor: VisitorPlan.Visitor, traits: borrowing VisitorTraits) -> Int {
            var combination = 0
            for index in splits.indices {
                let group = group(index, of: visitor, traits: traits)
                combination = combination * (splits[index].weights.count + 1) + (group.map { $0 + 1 } ?? 0)
            }
            return combination
        }

        /// The visitor's group in the active experiment at `index`, or nil when it does not take them in.
        func group(_ index: Int, of visitor: VisitorPlan.Visitor, traits: borrowing VisitorTraits) -> Int? {
            let split = splits[index]
            return split.screens
                ? activeExperiments[index].groupIndex(for: visitor, split: split, weights: weights, traits: traits)
                : split.group(of: visitor, weights: weights)
        }

        private static func combinations(_ experiments: [Toggles.Experiment], toggles: Toggles, toggled: Set<String>,
                                         unassigned: VisitorPlan.Decided) -> [VisitorPlan.Decided] {
            var count = 1
            for experiment in experiments {
                count *= experiment.groups.count + 1
                if count > sharedLimit { return [] }
            }
            return (0..<count).map { combination in
                var rest = combination
                var assignments: [FeatureDecisions.Assignment] = []
                for experiment in experiments.reversed() {
                    let digit = rest % (experiment.groups.count + 1)
                    rest /= experiment.groups.count + 1
                    if digit > 0 {
                        assignments.insert(Assignment(experiment: experiment.name, group: experiment.groups[digit - 1]), at: 0)
                    }
                }
                return assignments.isEmpty ? unassigned
                    : VisitorPlan.Decided(toggles: toggles, toggled: toggled, assignments, nil, isShared: true)
            }
        }
    }

    /// The layout `visitor` is rolled out to, if any: a stable position in [0, 1) against the
    /// rollout shares laid end to end in layout-name order. The salt is the older grid rollout's,
    /// so visitors keep the grid when a grid-only rollout is written in the new form.
    public func rolloutLayout(for visitor: String) -> String? { Self.rolloutLayout(in: toggles.rollout, for: visitor) }

    static func rolloutLayout(in rollout: [String: Double], for visitor: String) -> String? {
        guard !rollout.isEmpty else { return nil }
        var position = StableHash.unitInterval("gridRollout\u{0}" + visitor)
        for (layout, share) in rollout.sorted(by: { $0.key < $1.key }) {
            if position < share { return layout }
            position -= share
        }
        return nil
    }

    /// Whether `visitor` is in the grid rollout.
    public func isInGridRollout(_ visitor: String) -> Bool { rolloutLayout(for: visitor) == "grid" }

    /// The groups `visitor` is in, one per active experiment that takes them in, in file order.
    public func assignments(for visitor: String, traits: VisitorTraits = VisitorTraits()) -> [Assignment] {
        plan(for: visitor, traits: traits).assignments
    }

    /// Everything the toggles decide for `visitor`, each experiment's group hashed once.
    /// The traits and override are borrowed: taken by value they were copied for the plan's
    /// initializer, every string retained and released.
    public func plan(for visitor: String, traits: borrowing VisitorTraits = VisitorTraits(),
                     override: borrowing VisitorPlan.Override? = nil) -> VisitorPlan {
        VisitorPlan(decisions: self, visitor: .text(visitor), traits: traits, override: override)
    }

    /// The plan of the visitor a cookie names: their id is spelled out only if a rollout or an
    /// experiment hashes it.
    public func plan(for visitor: VisitorID, traits: borrowing VisitorTraits = VisitorTraits(),
                     override: borrowing VisitorPlan.Override? = nil) -> VisitorPlan {
        VisitorPlan(decisions: self, visitor: .id(visitor), traits: traits, override: override)
    }

    /// Whether `override` still forces something: a group only while its experiment runs with it.
    public func honours(_ override: VisitorPlan.Override) -> Bool {
        guard case .group(let experiment, let group) = override else { return true }
        return prepared.activeExperiments.contains { $0.name == experiment && $0.groups.contains { $0.name == group } }
    }

    /// What the active experiments' targeting reads: a request works out only those (and the
    /// device afterwards when the visitor is in some experiment, for the segments).
    public var targeted: Targeted { prepared.targeted }

    /// Which of the visitor's traits some active experiment's targeting reads.
    public struct Targeted: Sendable, Equatable {
        public var device = false, language = false, chosenLayout = false
    }

    /// The layout for `visitor` when they have not chosen one (see `VisitorPlan.layout`). The
    /// toggles were checked against the app's layouts on load.
    public func defaultLayout(for visitor: String) -> String { plan(for: visitor).layout }

    /// Whether `visitor` is shown the onboarding notice (unless dismissed): their experiment
    /// group's setting, else the `onboarding` toggle.
    public func showsOnboarding(for visitor: String) -> Bool { plan(for: visitor).showsOnboarding }

    /// A visitor's group in one experiment.
    public struct Assignment: Sendable, Equatable {
        /// The experiment's name.
        public let experiment: String
        /// The visitor's group in it.
        public let group: Toggles.Group

        /// The report property naming the experiment: `experiment.<name>`.
        public var propertyKey: String { "experiment." + experiment }
    }
}

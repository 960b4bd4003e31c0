/// The one place where toggles become decisions for a visitor; cheap to create per request.
public struct FeatureDecisions: Sendable, Equatable {
    /// The layout the grid rollout hands out.
    public static let rolloutLayout = "grid"

    /// The toggles deciding.
    public let toggles: Toggles

    /// Decides from a snapshot of the toggles.
    public init(toggles: Toggles) {
        self.toggles = toggles
    }

    /// Whether `visitor` is in the grid rollout: stable per visitor, a `gridRollout` share of all.
    public func isInGridRollout(_ visitor: String) -> Bool {
        toggles.gridRollout > 0 && StableHash.unitInterval("gridRollout\u{0}" + visitor) < toggles.gridRollout
    }

    /// The default layout name for `visitor`: `grid` inside the rollout, else `defaultLayout`.
    /// The app checks the name against its registered layouts.
    public func defaultLayout(for visitor: String) -> String {
        isInGridRollout(visitor) ? Self.rolloutLayout : toggles.defaultLayout
    }

    /// The running experiment's name, if any.
    public var experimentName: String? { toggles.experiment?.name }

    /// The visitor's group in the running experiment (stable per visitor and experiment name); nil if none runs.
    public func experimentGroup(for visitor: String) -> String? {
        guard let experiment = toggles.experiment, !experiment.groups.isEmpty else { return nil }
        let hash = StableHash.hash("experiment\u{0}" + experiment.name + "\u{0}" + visitor)
        return experiment.groups[Int(hash % UInt64(experiment.groups.count))]
    }

    /// Whether the onboarding feature is on (the app tracks each visitor's dismissal itself).
    public var showsOnboarding: Bool { toggles.onboarding }
}

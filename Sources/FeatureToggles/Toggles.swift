/// The feature toggles, as read from the toggles file (default `Config/toggles.json`).
///
/// Schema (a JSON object; every field optional; unknown fields are an error, to catch typos):
/// ```
/// {
///   "defaultLayout": "list",      // layout name for visitors outside the rollout; default "list"
///   "gridRollout": 0.0,           // 0…1: share of visitors who get "grid" by default; default 0
///   "experiment": {               // an A/B experiment, or null/absent for none
///     "name": "home-hero",        //   non-empty; part of the hash, so renaming reshuffles visitors
///     "groups": ["a", "b"]        //   at least two different non-empty names
///   },
///   "onboarding": true            // show the onboarding notice on a first visit; default false
/// }
/// ```
public struct Toggles: Sendable, Equatable {
    /// The layout every visitor outside the grid rollout gets by default (not checked against the registry).
    public var defaultLayout: String
    /// The share of visitors, 0…1, who get `FeatureDecisions.rolloutLayout` by default.
    public var gridRollout: Double
    /// The running A/B experiment, if any.
    public var experiment: Experiment?
    /// Whether first-time visitors are shown the onboarding notice.
    public var onboarding: Bool

    /// Creates toggles; the defaults are those of an empty file.
    public init(defaultLayout: String = "list", gridRollout: Double = 0, experiment: Experiment? = nil, onboarding: Bool = false) {
        self.defaultLayout = defaultLayout
        self.gridRollout = gridRollout
        self.experiment = experiment
        self.onboarding = onboarding
    }

    /// An A/B experiment: each visitor is in one of `groups`, stably.
    public struct Experiment: Sendable, Equatable {
        /// The experiment's name, reported with its group.
        public var name: String
        /// The group names, at least two.
        public var groups: [String]

        /// Creates an experiment.
        public init(name: String, groups: [String]) {
            self.name = name
            self.groups = groups
        }
    }
}

/// Why a toggles file was rejected; its description names the file and the field, e.g.
/// `Config/toggles.json: gridRollout must be a number between 0 and 1 (got 1.5)`.
public struct TogglesError: Error, Equatable, CustomStringConvertible {
    /// The file, as given.
    public let file: String
    /// The offending field (`gridRollout`, `experiment.groups`, …), nil for whole-file problems.
    public let field: String?
    /// What is wrong with it.
    public let reason: String

    /// Creates an error.
    public init(file: String, field: String?, reason: String) {
        self.file = file
        self.field = field
        self.reason = reason
    }

    public var description: String {
        if let field { return "\(file): \(field) \(reason)" }
        return "\(file): \(reason)"
    }
}

/// The feature toggles, as read from the toggles file (default `Config/toggles.json`).
///
/// Schema (a JSON object; every field optional; unknown fields are an error, to catch typos):
/// ```
/// {
///   "defaultLayout": "list",      // layout for visitors outside every rollout and experiment; default "list"
///   "rollout": {"grid": 0.1},     // layout → share of visitors (0…1, adding up to at most 1) who get it by default
///   "gridRollout": 0.0,           // older form of {"rollout": {"grid": share}}; not together with "rollout"
///   "experiments": [              // experiments that change what people see (see `Experiment`)
///     {"name": "home-layout", "active": true,
///      "groups": [{"name": "a", "weight": 1, "layout": "list", "visitors": ["<32 hex digits>"]},
///                 {"name": "b", "weight": 1, "layout": "grid", "onboarding": false}],
///      "targeting": {"device": ["phone"], "visitor": "new", "language": ["de"], "chosenLayout": "none"},
///      "namespace": {"name": "home", "range": [0, 0.5]}}
///   ],
///   "experiment": {               // older form: a tagging-only experiment with equal groups
///     "name": "home-hero",
///     "groups": ["a", "b"]
///   },
///   "onboarding": true,           // show the onboarding notice on a first visit; default false
///   "rows": {"trending": false},  // the home's rows switched off (or on); a group may switch them too
///   "ramps": [                    // rollout shares that rise on a schedule (see `Ramp`)
///     {"layout": "grid", "steps": [{"at": "2026-01-01T12:00:00Z", "share": 0.25}]}
///   ]
/// }
/// ```
/// For a visitor without a layout of their own: an active experiment's layout, else their rollout
/// layout, else `defaultLayout`.
public struct Toggles: Sendable, Equatable {
    /// The layout every visitor outside the rollouts and layout experiments gets by default.
    public var defaultLayout: String
    /// Layout name → share of visitors (0…1, summing to at most 1) who get it by default.
    public var rollout: [String: Double]
    /// The experiments, running (`active`) or stopped; the older `experiment` field is one of them.
    public var experiments: [Experiment]
    /// Whether first-time visitors are shown the onboarding notice (an experiment group may override it).
    public var onboarding: Bool
    /// Rollout shares that rise on a schedule (`Ramp`); only the servers' stepping reads them.
    public var ramps: [Ramp] = []
    /// Row name (`rowNames`) → whether the home shows it; a row not named is shown.
    public var rows: [String: Bool] = [:]

    /// Creates toggles; the defaults are those of an empty file.
    public init(defaultLayout: String = "list", rollout: [String: Double] = [:], experiments: [Experiment] = [],
                onboarding: Bool = false) {
        self.defaultLayout = defaultLayout
        self.rollout = rollout.filter { $0.value > 0 }
        self.experiments = experiments
        self.onboarding = onboarding
    }

    /// Toggles in the older shape: a grid-only rollout share and one tagging-only experiment.
    public init(defaultLayout: String = "list", gridRollout: Double, experiment: Experiment? = nil, onboarding: Bool = false) {
        self.init(defaultLayout: defaultLayout, rollout: ["grid": gridRollout], experiments: experiment.map { [$0] } ?? [],
                  onboarding: onboarding)
    }

    /// The grid's rollout share (the older `gridRollout` field).
    public var gridRollout: Double { rollout["grid"] ?? 0 }

    /// The experiments that assign visitors and tag their events.
    public var activeExperiments: [Experiment] { experiments.filter(\.active) }

    /// Every layout name the toggles mention, with the field that names it (for checking against the factory).
    public var layoutReferences: [(field: String, layout: String)] {
        var references = [("defaultLayout", defaultLayout)]
        references += rollout.keys.sorted().map { ("rollout.\($0)", $0) }
        for (index, experiment) in experiments.enumerated() {
            for (groupIndex, group) in experiment.groups.enumerated() {
                if let layout = group.layout { references.append(("experiments[\(index)].groups[\(groupIndex)].layout", layout)) }
            }
            if let chosen = experiment.targeting.chosenLayout, chosen != Targeting.noChoice {
                references.append(("experiments[\(index)].targeting.chosenLayout", chosen))
            }
        }
        references += ramps.enumerated().map { ("ramps[\($0.offset)].layout", $0.element.layout) }
        return references
    }
}

/// Why a toggles file was rejected; its description names the file and the field, e.g.
/// `Config/toggles.json: gridRollout must be a number between 0 and 1 (got 1.5)`.
public struct TogglesError: Error, Equatable, CustomStringConvertible {
    /// The file, as given.
    public let file: String
    /// The offending field (`gridRollout`, `experiments.home-layout.groups`, …), nil for whole-file problems.
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

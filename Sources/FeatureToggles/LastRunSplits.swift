/// The split each experiment last ran with, over versions of the toggles taken oldest first. The
/// tallies keep every visitor in the group of their first exposure, through stops and restarts,
/// so a version that runs an experiment with another split than it last ran with mixes two
/// splits, whether it changes the weights while it runs or starts it again with new ones. The
/// results page names such a version beside the sample-ratio warning; the admin review warns
/// before one is applied.
public struct LastRunSplits: Sendable {
    /// Where an experiment last ran: the version, and the experiment as that version ran it.
    public struct Run: Sendable {
        public let version: Int
        public let experiment: Toggles.Experiment
    }

    /// A version that runs an experiment with a split moving some of its visitors from the split it
    /// last ran with.
    public struct Change: Sendable, Equatable {
        /// The version that runs it with the other split.
        public let version: Int
        /// The newest version before it that ran it.
        public let lastRanIn: Int
        /// It was not running in the version before: started again, not changed while it ran.
        public let restarted: Bool
        /// The share of its visitors in another group than the split it last ran with gave them.
        public let moved: Double

        public init(version: Int, lastRanIn: Int, restarted: Bool, moved: Double) {
            self.version = version
            self.lastRanIn = lastRanIn
            self.restarted = restarted
            self.moved = moved
        }
    }

    /// Below this share (0.05%) a new split moves next to nobody: rounding of weights written anew.
    public static let smallestMove = 0.0005

    /// Per experiment, where it last ran.
    public private(set) var runs: [String: Run] = [:]
    /// Per experiment, the newest version that ran it with another split than it last ran with.
    public private(set) var newestChanges: [String: Change] = [:]
    /// The experiments running in the newest version taken.
    private var running: Set<String> = []
    /// The newest version taken; 0 before any.
    public private(set) var newestVersion = 0

    public init() {}

    /// What running `toggles` as `version`, the next version, would change, without taking it.
    public func changes(_ toggles: Toggles, version: Int) -> [String: Change] {
        var changes: [String: Change] = [:]
        for experiment in toggles.experiments where experiment.active {
            guard let run = runs[experiment.name] else { continue }
            let moved = run.experiment.movedShare(to: experiment)
            guard moved >= Self.smallestMove else { continue }
            changes[experiment.name] = Change(version: version, lastRanIn: run.version,
                                              restarted: !running.contains(experiment.name), moved: moved)
        }
        return changes
    }

    /// Takes `toggles` as `version`, the next version.
    public mutating func take(_ toggles: Toggles, version: Int) {
        newestChanges.merge(changes(toggles, version: version)) { _, newer in newer }
        let active = toggles.experiments.filter(\.active)
        for experiment in active { runs[experiment.name] = Run(version: version, experiment: experiment) }
        running = Set(active.map(\.name))
        newestVersion = version
    }
}

/// The limits of the experiment tallies, for the pages that explain them.
public enum ExperimentTallyLimits {
    /// Groups tallied per experiment.
    public static let groups = ExperimentTally.maxGroups
    /// Experiments tallied.
    public static let experiments = ExperimentTallies.maxExperiments
}

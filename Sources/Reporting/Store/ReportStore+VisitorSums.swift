extension ReportStore {
    /// Each experiment's exact visitor sums per group, over the whole log (every visitor from their
    /// first exposure on), as the writer keeps them; nil when this store has no writer's tallies
    /// (a store opened for reading only). Costs a copy of a few hundred bytes per experiment.
    public func experimentVisitors() -> [String: ExperimentVisitors]? {
        let snapshot = catalog.experimentTallies.snapshot
        return snapshot.ready ? snapshot.experiments : nil
    }
}

extension ReportStore {
    /// Each experiment's exact visitor sums per group, over the whole log (every visitor from their
    /// first exposure on), as the writer keeps them, with their cells by segment and day; nil while
    /// the tallies are being prepared and when this store has no writer's tallies (a store opened
    /// for reading only). Costs a copy of a few references.
    public func experimentVisitors() -> [String: ExperimentVisitors]? {
        let snapshot = catalog.experimentTallies.snapshot
        return snapshot.ready ? snapshot.experiments : nil
    }

    /// While the tallies are being loaded or rebuilt from the log at start: the share of the log
    /// read so far (0 to 1); nil once they are ready, or when there are none.
    public var experimentTallyProgress: Double? { catalog.experimentTallies.snapshot.progress }
}

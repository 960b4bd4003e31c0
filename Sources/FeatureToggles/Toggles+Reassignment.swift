import Basics

extension Toggles.Experiment {
    /// The share of its visitors that `other`, the same experiment with other groups or weights,
    /// puts in another group: a visitor keeps their place in [0, 1) (the salt is the name's) and
    /// the groups' spans move under it. Groups are matched by name.
    public func movedShare(to other: Toggles.Experiment) -> Double {
        func spans(_ experiment: Toggles.Experiment) -> [String: Range<Double>] {
            let total = ExperimentSplit.total(of: experiment.groups.lazy.map(\.weight))
            var start = 0.0, spans: [String: Range<Double>] = [:]
            for group in experiment.groups {
                let end = start + group.weight / total
                spans[group.name] = start..<end
                start = end
            }
            return spans
        }
        let before = spans(self), after = spans(other)
        let kept = before.reduce(0.0) { sum, entry in
            guard let span = after[entry.key] else { return sum }
            return sum + max(0, min(span.upperBound, entry.value.upperBound) - max(span.lowerBound, entry.value.lowerBound))
        }
        return max(0, 1 - kept)
    }
}

extension Toggles {
    /// What these toggles, proposed as the next version after `splits` (the version in force taken
    /// last), do to the visitors of the experiments they run: those moved to another group than the
    /// split it last ran with gave them make the results mix two splits, and the sample-ratio check
    /// then measures the whole run against the new weights. A stop between the two changes nothing:
    /// the visitors counted before stay counted. Said on the review page before an apply.
    public func reassignmentWarnings(after splits: LastRunSplits) -> [String] {
        let changes = splits.changes(self, version: splits.newestVersion + 1)
        return experiments.compactMap { experiment in
            guard let change = changes[experiment.name] else { return nil }
            let percent = change.moved * 100 >= 9.95 ? String(Int((change.moved * 100).rounded())) : String(printf: "%.1f", change.moved * 100)
            let consequence = "in another group than before, so its results will mix both splits, and the sample-ratio check will "
                + "measure them against the new weights"
            guard !change.restarted else {
                return "experiment \"\(experiment.name)\" last ran in version \(change.lastRanIn) with other groups or weights: starting "
                    + "it again with these puts about \(percent)% of the visitors counted then \(consequence). To change the split "
                    + "cleanly, start another under a new name"
            }
            return "experiment \"\(experiment.name)\" is running: its new groups or weights put about \(percent)% of its visitors "
                + "\(consequence). To change the split cleanly, stop it and start another under a new name"
        }
    }
}

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
    /// What a change from `current` does to the visitors of experiments running in both: those it
    /// moves to another group make the results mix two splits, and the sample-ratio check then
    /// measures the whole run against the new weights. Said on the review page before an apply.
    public func reassignmentWarnings(from current: Toggles) -> [String] {
        experiments.filter(\.active).compactMap { experiment in
            guard let before = current.experiments.first(where: { $0.name == experiment.name && $0.active }) else { return nil }
            let moved = before.movedShare(to: experiment)
            guard moved >= 0.0005 else { return nil }
            let percent = moved * 100 >= 9.95 ? String(Int((moved * 100).rounded())) : String(printf: "%.1f", moved * 100)
            return "experiment \"\(experiment.name)\" is running: its new groups or weights put about \(percent)% of its visitors "
                + "in another group than before, so its results will mix both splits, and the sample-ratio check will measure "
                + "them against the new weights. To change the split cleanly, stop it and start another under a new name"
        }
    }
}

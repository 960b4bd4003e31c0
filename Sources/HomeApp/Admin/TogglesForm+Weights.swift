import Basics
import FeatureToggles

/// A group's weight is typed as a plain decimal: one Swift would read but no person means
/// (`1e2`, `+3`, `0x10`) is refused here, beside its field, before the form becomes a file.
extension TogglesForm {
    /// The first weight typed that is no decimal number, named as the loader names it (kept rows).
    var weightProblem: TogglesError? {
        for (position, kept) in keptExperiments.enumerated() {
            for (groupPosition, group) in kept.groups.map(\.group).enumerated()
            where !group.weight.isEmpty && TypedNumber.decimal(group.weight) == nil {
                return TogglesError(file: "toggles", field: "experiments[\(position)].groups[\(groupPosition)].weight",
                                    reason: "must be a number greater than 0 in digits, like 2 or 1.5 (got \"\(group.weight)\")")
            }
        }
        return nil
    }
}

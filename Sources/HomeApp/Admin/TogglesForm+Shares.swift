import Basics
import FeatureToggles

/// The form's shares are typed in percent, the loader's rules speak of the file's fractions: a
/// share that is no percent is refused here first, and a loader message about shares is said again
/// in percent. Fields are named as the loader names them (kept rows), for `formField(for:)`.
extension TogglesForm {
    /// The first share typed that is no number from 0 to 100 (or a namespace range out of order).
    var shareProblem: TogglesError? {
        for (layout, share) in rollout.sorted(by: { $0.key < $1.key }) where !share.isEmpty && !Self.isPercent(share) {
            return Self.problem("rollout.\(layout)", "must be a percent from 0 to 100 (got \"\(share)\")")
        }
        for (position, kept) in keptExperiments.enumerated() where kept.experiment.targeting.hasNamespace {
            let targeting = kept.experiment.targeting
            guard let from = SharePercent.fraction(targeting.rangeFrom), let to = SharePercent.fraction(targeting.rangeTo),
                  0 <= from, from < to, to <= 1
            else {
                return Self.problem("experiments[\(position)].namespace.range",
                                    "must be two percents with 0 ≤ from < to ≤ 100, like 0 and 50 "
                                    + "(got \"\(targeting.rangeFrom)\" and \"\(targeting.rangeTo)\")")
            }
        }
        for (position, kept) in keptRamps.enumerated() {
            for (stepPosition, step) in kept.steps.enumerated() where !Self.isPercent(step.step.share) {
                return Self.problem("ramps[\(position)].steps[\(stepPosition)].share",
                                    "must be a percent from 0 to 100 (got \"\(step.step.share)\")")
            }
        }
        return nil
    }

    /// `error` as the form says it: a rule about shares in percent, as they were typed.
    func inPercent(_ error: TogglesError) -> TogglesError {
        guard let field = error.field else { return error }
        var reason = error.reason
        if field == "rollout", reason.hasPrefix("shares add up to ") {
            let total = rollout.values.compactMap { Double($0) }.reduce(0, +)
            reason = "shares add up to \(JSONText.rounded(total))%; they must add up to at most 100%"
        } else if field.hasSuffix(".share"), reason.hasSuffix(" more than 1") {
            reason = reason.dropLast(1) + "100%"
        } else if field.hasSuffix(".namespace.range") {
            reason = Self.rangesInPercent(reason)
        }
        return TogglesError(file: error.file, field: field, reason: reason)
    }

    private static func isPercent(_ text: String) -> Bool {
        SharePercent.fraction(text).map { (0...1).contains($0) } ?? false
    }

    private static func problem(_ field: String, _ reason: String) -> TogglesError {
        TogglesError(file: "toggles", field: field, reason: reason)
    }

    /// Every `[from, to]` of fractions in `text` as `from–to%`.
    private static func rangesInPercent(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            result += rest[..<open]
            let bounds = rest[rest.index(after: open)..<close].split(separator: ",").compactMap {
                Double(String($0).trimmingWhitespace())
            }
            result += bounds.count == 2 ? "\(SharePercent.text(bounds[0]))–\(SharePercent.text(bounds[1]))%" : String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}

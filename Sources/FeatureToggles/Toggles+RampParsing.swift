import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Toggles {
    /// `"ramps": [{"layout": "grid", "steps": [{"at": "2026-01-01T12:00:00Z", "share": 0.25}, …]}]`:
    /// one ramp per layout, steps in time order, each share between 0 and 1 and, with the other
    /// layouts' rollout shares, adding up to at most 1.
    static func ramps(_ value: JSONValue, rollout: [String: Double], _ fail: Fail) throws(TogglesError) -> [Ramp] {
        guard case .array(let values) = value else { throw fail("ramps", "must be a list of ramps (got \(value.kind))") }
        var ramps: [Ramp] = []
        for (index, value) in values.enumerated() {
            let path = "ramps[\(index)]"
            guard case .object(let members) = value else { throw fail(path, "must be an object with a layout and steps (got \(value.kind))") }
            try unknownFields(members, known: ["layout", "steps"], path, fail)
            guard case .string(let layout)? = members["layout"], isLayoutName(layout) else {
                throw fail("\(path).layout", "must be a layout name of lower-case letters, digits, '-' or '_' (got \(members["layout"]?.kind ?? "nothing"))")
            }
            guard !ramps.contains(where: { $0.layout == layout }) else { throw fail("\(path).layout", "has a ramp already: one per layout") }
            guard case .array(let stepValues)? = members["steps"], (1...maxRampSteps).contains(stepValues.count) else {
                throw fail("\(path).steps", "must be a list of 1 to \(maxRampSteps) steps (got \(members["steps"]?.kind ?? "nothing"))")
            }
            let others = rollout.filter { $0.key != layout }.values.reduce(0, +)
            var steps: [Ramp.Step] = []
            for (stepIndex, stepValue) in stepValues.enumerated() {
                let stepPath = "\(path).steps[\(stepIndex)]"
                guard case .object(let step) = stepValue else { throw fail(stepPath, "must be an object with at and share (got \(stepValue.kind))") }
                try unknownFields(step, known: ["at", "share"], stepPath, fail)
                guard case .string(let text)? = step["at"], let at = rampTime(parsing: text) else {
                    throw fail("\(stepPath).at", "must be a time like 2026-01-01T12:00:00Z (got \(step["at"]?.kind ?? "nothing"))")
                }
                guard steps.last.map({ $0.at < at }) ?? true else { throw fail("\(stepPath).at", "must be later than the step before") }
                guard case .number(let share)? = step["share"], share.isFinite, (0...1).contains(share) else {
                    throw fail("\(stepPath).share", "must be a number between 0 and 1 (got \(step["share"]?.kind ?? "nothing"))")
                }
                guard share + others <= 1 + 1e-9 else {
                    throw fail("\(stepPath).share", "and the other layouts' rollout shares would add up to more than 1")
                }
                steps.append(Ramp.Step(at: at, share: share))
            }
            ramps.append(Ramp(layout: layout, steps: steps))
        }
        return ramps
    }
}

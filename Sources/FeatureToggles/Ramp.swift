#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Toggles {
    /// A rollout share that rises on a schedule: at each step's time the servers make a new version
    /// with the layout's share set to the step's (and the step gone from the ramp). Removing the
    /// ramp stops it; the share reached stays.
    public struct Ramp: Sendable, Equatable {
        public struct Step: Sendable, Equatable {
            /// When the step is due (UTC, whole seconds).
            public var at: Date
            /// The layout's rollout share from then on (0…1).
            public var share: Double

            public init(at: Date, share: Double) {
                self.at = at
                self.share = share
            }
        }

        /// The layout whose rollout share rises.
        public var layout: String
        /// The steps still to come, in time order.
        public var steps: [Step]

        public init(layout: String, steps: [Step]) {
            self.layout = layout
            self.steps = steps
        }
    }

    /// The most steps a ramp may have, and ramps a file.
    public static let maxRampSteps = 20

    /// The next step due of every ramp, soonest first.
    public var nextRampStep: (layout: String, step: Ramp.Step)? {
        ramps.compactMap { ramp in ramp.steps.first.map { (ramp.layout, $0) } }.min { $0.1.at < $1.1.at }
    }

    /// The toggles once every step due at `now` is taken: each ramped layout's share set to its
    /// latest due step's, those steps gone (and a ramp with none left). Nil when none is due.
    public func steppingRamps(at now: Date) -> (toggles: Toggles, steps: [(layout: String, share: Double)])? {
        var next = self
        var taken: [(layout: String, share: Double)] = []
        var remaining: [Ramp] = []
        for ramp in ramps {
            guard let last = ramp.steps.last(where: { $0.at <= now }) else {
                remaining.append(ramp)
                continue
            }
            next.rollout[ramp.layout] = last.share > 0 ? last.share : nil
            taken.append((ramp.layout, last.share))
            let rest = ramp.steps.filter { $0.at > now }
            if !rest.isEmpty { remaining.append(Ramp(layout: ramp.layout, steps: rest)) }
        }
        next.ramps = remaining
        return taken.isEmpty ? nil : (next, taken)
    }

    /// A step's time as the file writes it: `2026-01-01T12:00:00Z`.
    public static func rampTime(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func rampTime(parsing text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}

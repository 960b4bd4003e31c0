import Basics
import FeatureToggles
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The toggles' scheduled ramps: each step that is due becomes a version by "ramp".
extension ConfigVersions where Document == TogglesDocument {
    /// Takes every ramp step that is due (from the watcher, once a second). With a database one
    /// instance wins each step; the others install it.
    func stepRamps(now: Date = Date()) {
        let router = document.router
        guard let next = router.toggles.nextRampStep, next.step.at <= now, database == nil || contacted.load(ordering: .relaxed) else { return }
        serial.withLock { _ in
            guard let (toggles, steps) = router.toggles.steppingRamps(at: now) else { return }
            let note = "ramp step: " + steps.map { "\($0.layout) to \(JSONText.number($0.share * 100))%" }.joined(separator: ", ")
            if case .applied(let entry) = applyLocked(toggles.jsonText, base: current.version, who: "ramp", note: note) {
                logger.info("ramp step applied", metadata: ["version": "\(entry.version)", "note": "\(note)"])
            }
        }
    }
}

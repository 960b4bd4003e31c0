import FeatureToggles
import Synchronization

/// The toggles versions that moved a running experiment's visitors to another group (new weights
/// or groups). Its tallies keep each visitor in the group of their first exposure, so after such
/// a change the sample-ratio check measures the old split against the new weights and fails with
/// nothing broken; the results page says which version did it beside the warning.
final class SplitChanges: Sendable {
    let history: ConfigHistory
    /// Kept for the history's newest version: a report page would otherwise read and parse up to
    /// `versions` files on every load.
    private let kept = Mutex<(version: Int, changes: [String: Int])?>(nil)

    init(history: ConfigHistory) { self.history = history }

    /// `newest(in:)` of the history as it is now.
    func current() -> [String: Int] {
        let version = history.all.last?.version ?? 0
        if let kept = kept.withLock({ $0 }), kept.version == version { return kept.changes }
        let changes = Self.newest(in: history)
        kept.withLock { $0 = (version, changes) }
        return changes
    }

    /// The versions looked at, newest first: the history page's 50, so a page load reads at most
    /// that many small files.
    static let versions = 50

    /// Per experiment, the newest version that runs it with a split moving at least 0.05% of its
    /// visitors from the split it last ran with: stopping it between the two keeps the visitors
    /// counted before in the tallies, so a restart with new weights mixes two splits as well.
    static func newest(in history: ConfigHistory) -> [String: Int] {
        var changed: [String: Int] = [:]
        var lastRun: [String: Toggles.Experiment] = [:]
        for summary in history.all.suffix(versions) {
            guard let toggles = history.entry(summary.version).flatMap({ TogglesDocument.parse($0.text) }) else { continue }
            for experiment in toggles.experiments where experiment.active {
                if let before = lastRun[experiment.name], before.movedShare(to: experiment) >= 0.0005 {
                    changed[experiment.name] = summary.version
                }
                lastRun[experiment.name] = experiment
            }
        }
        return changed
    }
}

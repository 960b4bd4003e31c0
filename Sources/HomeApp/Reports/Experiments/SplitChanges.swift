import FeatureToggles
import Synchronization

/// The split each experiment last ran with, over the toggles' history (`LastRunSplits`): the
/// versions that moved an experiment's visitors to another group, changing its weights or groups
/// while it ran or starting it again with other ones. Its tallies keep each visitor in the group
/// of their first exposure, so after such a version the sample-ratio check measures the old split
/// against the new weights and fails with nothing broken; the results page says which version did
/// it, and how, beside the warning, and the admin review warns before the next one.
final class SplitChanges: Sendable {
    let history: ConfigHistory
    /// Kept for the history's newest version: a page would otherwise read and parse up to
    /// `versions` files on every load.
    private let kept = Mutex<(version: Int, splits: LastRunSplits)?>(nil)

    init(history: ConfigHistory) { self.history = history }

    /// `splits(in:)` of the history as it is now.
    func current() -> LastRunSplits {
        let version = history.all.last?.version ?? 0
        if let kept = kept.withLock({ $0 }), kept.version == version { return kept.splits }
        let splits = Self.splits(in: history)
        kept.withLock { $0 = (version, splits) }
        return splits
    }

    /// The versions looked at, newest first: the history page's 50, so a page load reads at most
    /// that many small files.
    static let versions = 50

    /// The history's newest `versions` taken oldest first; a version that does not parse is left out.
    static func splits(in history: ConfigHistory) -> LastRunSplits {
        var splits = LastRunSplits()
        for summary in history.all.suffix(versions) {
            guard let toggles = history.entry(summary.version).flatMap({ TogglesDocument.parse($0.text) }) else { continue }
            splits.take(toggles, version: summary.version)
        }
        return splits
    }
}

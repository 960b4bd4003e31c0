import FeatureToggles
import Reporting
import Synchronization

/// A cached page's events as templates for the visitors in experiments: one list for each shared
/// decision of groups (`VisitorPlan.shared`), device and cohort, the parts every line of such a
/// visit carries. A visit in an experiment then queues its lines as a visit in none does, instead
/// of building and encoding each event with the visit's groups.
final class GroupedTemplates: Sendable {
    private struct Key: Equatable {
        let decision: ObjectIdentifier
        let device: DeviceClass
        let cohort: VisitorTraits.Cohort
    }

    private struct Entry {
        let key: Key
        /// Held so that its identity, the key, is not taken by another while the entry stands.
        let decision: AnyObject & Sendable
        let templates: [EventTemplate]
    }

    /// Groups × devices × cohorts: a handful while the toggles stay, more across versions (then
    /// the list starts again). A scan compares fewer bytes than a dictionary hashes.
    private let entries = Mutex<[Entry]>([])
    private static let capacity = 64

    /// The templates kept for visitors sharing the decision `decision` identifies (`VisitorPlan.sharedIdentity`),
    /// on `visit`'s device and cohort.
    func templates(for visit: borrowing Visit, decision: ObjectIdentifier) -> [EventTemplate]? {
        let key = Key(decision: decision, device: visit.device, cohort: visit.cohort)
        return entries.withLock { entries in
            for index in entries.indices where entries[index].key == key { return entries[index].templates }
            return nil
        }
    }

    /// Keeps `templates` for the visitors sharing `visit`'s decision, on its device and cohort.
    func keep(_ templates: [EventTemplate], for visit: borrowing Visit) {
        guard let decision = visit.plan.shared else { return }
        let key = Key(decision: ObjectIdentifier(decision), device: visit.device, cohort: visit.cohort)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            if !entries.contains(where: { $0.key == key }) {
                entries.append(Entry(key: key, decision: decision, templates: templates))
            }
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Reporting

/// What one visitor did with the catalogue, as their report events tell it: the titles they are
/// part-way through (newest first), their list (in the order added), the titles they finished.
/// Bounded, so a visitor who plays everything costs no more than `limit` titles of each.
struct ViewingActivity: Sendable, Equatable {
    /// Titles kept of each kind; the oldest go first.
    static let limit = 50
    /// A position this close to the end (as a share of the duration) counts as finished.
    static let finishedShare = 0.95

    struct Progress: Sendable, Equatable {
        let item: String
        /// Seconds into the title, and its length in seconds (0 when not known).
        var position: Int
        var duration: Int

        /// The share watched, 0...1.
        var fraction: Double { duration > 0 ? min(1, Double(position) / Double(duration)) : 0 }
    }

    /// Started and not finished, newest first.
    private(set) var inProgress: [Progress] = []
    /// The visitor's list, oldest addition first.
    private(set) var myList: [String] = []
    /// Finished titles, newest first.
    private(set) var finished: [String] = []
    /// The title last played or moved on (finished or not): what Because you watched is about.
    private(set) var latestStarted: String?

    init() {}

    /// An activity as held compactly (`ViewingWords`).
    init(inProgress: [Progress], myList: [String], finished: [String], latestStarted: String?) {
        self.inProgress = inProgress
        self.myList = myList
        self.finished = finished
        self.latestStarted = latestStarted
    }

    var isEmpty: Bool { inProgress.isEmpty && myList.isEmpty && finished.isEmpty }

    func progress(of item: String) -> Progress? { inProgress.first { $0.item == item } }

    func isOnList(_ item: String) -> Bool { myList.contains(item) }

    static func isFinished(position: Int, duration: Int) -> Bool {
        duration > 0 && Double(position) >= Double(duration) * finishedShare
    }

    /// Takes one event into account; events that say nothing about viewing change nothing.
    mutating func apply(_ event: ReportEvent) {
        // Clearing forgets everything before it; the log keeps the events.
        if event.name == .historyCleared { return self = ViewingActivity() }
        guard let item = event.item else { return }
        if event.name == .playStarted || event.name == .playProgress { latestStarted = item }
        switch event.name {
        case .playStarted:
            // Playing again puts the title first, where the visitor left it.
            let kept = inProgress.firstIndex { $0.item == item }.map { inProgress.remove(at: $0) }
            let duration = Int(event.properties["duration"] ?? "") ?? kept?.duration ?? 0
            inProgress.insert(Progress(item: item, position: kept?.position ?? 0, duration: duration), at: 0)
        case .playProgress:
            guard let position = Int(event.properties["position"] ?? ""), position >= 0 else { return }
            inProgress.removeAll { $0.item == item }
            let duration = Int(event.properties["duration"] ?? "") ?? 0
            if Self.isFinished(position: position, duration: duration) {
                finished.removeAll { $0 == item }
                finished.insert(item, at: 0)
            } else {
                inProgress.insert(Progress(item: item, position: position, duration: duration), at: 0)
            }
        case .myListAdded:
            if !myList.contains(item) { myList.append(item) }
        case .myListRemoved:
            myList.removeAll { $0 == item }
        default:
            return
        }
        if inProgress.count > Self.limit { inProgress.removeLast(inProgress.count - Self.limit) }
        if finished.count > Self.limit { finished.removeLast(finished.count - Self.limit) }
        if myList.count > Self.limit { myList.removeFirst(myList.count - Self.limit) }
    }

    /// Whether `event` is one `apply` reads, from its name alone.
    static func reads(_ name: ReportEvent.Name) -> Bool {
        name == .playStarted || name == .playProgress || name == .myListAdded || name == .myListRemoved
            || name == .historyCleared
    }
}

import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Reporting

/// Reads the viewing events (every instance's from the report database when there is one, else
/// this instance's log: `ViewingEvents`) into the `ViewingHistory` at start, on a thread of its
/// own at low priority: the server answers meanwhile (visitors see no personal state until it is
/// done, and what they do meanwhile is kept). Shutdown stops it between lines.
final class ViewingHistoryLoader: Startable {
    let name = "viewing history"
    private let history: ViewingHistory
    private let events: ViewingEvents
    private let logger: Logger
    private let thread = BackgroundThread(name: "viewing-load", niceness: 10)

    init(history: ViewingHistory, events: ViewingEvents, logger: Logger) {
        self.history = history
        self.events = events
        self.logger = logger
    }

    func start() throws {
        try thread.start { [self] in load() }
    }

    func shutdown() {
        thread.stop()
    }

    private func load() {
        let began = Date()
        let scratch = ViewingHistory(capacity: history.capacity, loadedBefore: history.loadedBefore, loading: false)
        var read = 0
        let finished = events.forEach(ViewingEvents.names, until: history.loadedBefore,
                                      stop: { thread.isStopping }) { event in
            scratch.apply(event)
            read += 1
            return true
        }
        guard finished else { return }
        history.finishLoading(scratch)
        logger.info("viewing history loaded", metadata: [
            "events": "\(read)", "visitors": "\(history.count)", "from": "\(events.database == nil ? "log" : "report database")",
            "seconds": "\(String(printf: "%.2f", Date().timeIntervalSince(began)))"])
    }

    /// Whether the line may name a viewing event; the other lines are never decoded.
    static func mayBeViewing(_ line: ArraySlice<UInt8>) -> Bool {
        EventLineSniff.name(of: line, startsWithAnyOf: prefixes)
    }

    private static let prefixes = [Array("play_".utf8), Array("my_list_".utf8), Array("history_cleared\"".utf8)]
}

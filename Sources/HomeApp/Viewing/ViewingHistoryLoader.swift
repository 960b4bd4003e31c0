import Basics
import Foundation
import Logging
import Reporting
import Synchronization

/// Reads the report log's viewing events into the `ViewingHistory` at start, on a thread of its
/// own at low priority: the server answers meanwhile (visitors see no personal state until it is
/// done, and what they do meanwhile is kept). Shutdown stops it between lines.
final class ViewingHistoryLoader: Service {
    let name = "viewing history"
    private let history: ViewingHistory
    private let store: ReportStore
    private let logger: Logger
    private let stopping = Atomic(false)
    private let thread = Mutex<WorkerThread?>(nil)

    init(history: ViewingHistory, store: ReportStore, logger: Logger) {
        self.history = history
        self.store = store
        self.logger = logger
    }

    func start() throws {
        let started = try WorkerThread(name: "viewing-load", niceness: 10) { [self] in load() }
        thread.withLock { $0 = started }
    }

    func shutdown() {
        stopping.store(true, ordering: .relaxed)
        thread.withLock { $0 }?.join()
    }

    private func load() {
        let began = Date()
        let scratch = ViewingHistory(capacity: history.capacity, loadedBefore: history.loadedBefore, loading: false)
        var lines = store.lines().makeIterator()
        var read = 0
        while let line = lines.nextLine() {
            if stopping.load(ordering: .relaxed) { return }
            guard Self.mayBeViewing(line.text), let event = try? ReportEvent(jsonLine: line.text),
                  event.timestamp < history.loadedBefore else { continue }
            scratch.apply(event)
            read += 1
        }
        history.finishLoading(scratch)
        var metadata: Logger.Metadata = ["events": "\(read)", "visitors": "\(history.count)",
                                         "seconds": "\(String(format: "%.2f", Date().timeIntervalSince(began)))"]
        if let failure = lines.failure { metadata["cut short"] = "\(failure)" }
        logger.info("viewing history loaded", metadata: metadata)
    }

    /// Whether the line may name a viewing event; the other lines are never decoded.
    static func mayBeViewing(_ line: ArraySlice<UInt8>) -> Bool {
        EventLineSniff.name(of: line, startsWithAnyOf: prefixes)
    }

    private static let prefixes = [Array("play_".utf8), Array("my_list_".utf8), Array("history_cleared\"".utf8)]
}

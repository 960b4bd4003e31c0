#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ReportDatabase
import Reporting

/// Where the viewing events are read back from: with a report database, every instance's rows
/// there (the rows shown on any instance are the same); without one, or while the database
/// cannot answer, this instance's report log. The readers (the index at start, the look-up of a
/// visitor, the play statistics' rebuild) run on threads of their own, never a request's.
public struct ViewingEvents: Sendable {
    let store: ReportStore
    let database: DatabaseReports?
    let logger: Logger

    public init(store: ReportStore, database: DatabaseReports?, logger: Logger) {
        self.store = store
        self.database = database
        self.logger = logger
    }

    /// The names of the events a visitor's rows are made of.
    static let names: [ReportEvent.Name] = [.playStarted, .playProgress, .myListAdded, .myListRemoved, .historyCleared]

    static let linesBetweenStops = 4096

    /// Passes each event of `names` (of `visitors` alone when given) with a time from `since`
    /// and before `until`, in log order, to `body`, which returns false to stop. `stop` is asked
    /// between pages and every `linesBetweenStops` lines, matching or not: a log of other events
    /// would else hold a shutdown until the whole of it was read. False when stopped; a read cut
    /// short is logged.
    @discardableResult
    public func forEach(_ names: [ReportEvent.Name], visitors: Set<String>? = nil, since: Date = .distantPast, until: Date,
                        stop: () -> Bool = { false }, _ body: (ReportEvent) -> Bool) -> Bool {
        if let database {
            var rows = DatabaseEventsNamed(database, names: names.map(\.rawValue), visitors: visitors.map { Array($0) },
                                           from: since, until: until)
            var passed = 0
            do {
                while let page = try rows.next() {
                    guard !stop() else { return false }
                    for row in page {
                        guard let event = try? ReportEvent(jsonLine: row.line) else { continue }
                        guard body(event) else { return false }
                        passed += 1
                    }
                }
                return true
            } catch {
                // Nothing passed yet: the local log answers instead. Else what was read stands.
                logger.warning("viewing events not read from the report database", metadata: [
                    "error": "\(error)", "read": "\(passed)", "instead": "\(passed == 0 ? "this instance's log" : "nothing")"])
                if passed > 0 { return true }
            }
        }
        let prefixes = names.map { Array("\($0.rawValue)\"".utf8) }
        var lines = store.lines(since: since == .distantPast ? nil : since).makeIterator()
        var read = 0
        while let line = lines.nextLine() {
            read &+= 1
            if read % Self.linesBetweenStops == 0, stop() { return false }
            guard EventLineSniff.name(of: line.text, startsWithAnyOf: prefixes),
                  let event = try? ReportEvent(jsonLine: line.text), event.timestamp >= since, event.timestamp < until
            else { continue }
            if let visitors { guard let visitor = event.visitor, visitors.contains(visitor) else { continue } }
            guard body(event) else { return false }
        }
        if let failure = lines.failure { logger.warning("viewing events cut short", metadata: ["reason": "\(failure)"]) }
        return true
    }
}

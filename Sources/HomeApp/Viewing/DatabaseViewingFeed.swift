import Basics
import Logging
import ReportDatabase
import Reporting

/// The other instances' viewing events, with a report database: a feed of its own on the shared
/// stream's rows (`DatabaseLineFeed`, viewing events alone and held for no order, so they arrive
/// within a second of being shipped), each applied to the visitor's rows if this instance holds
/// them and handed to the play statistics. This instance's own events were taken in as recorded.
final class DatabaseViewingFeed: Startable {
    let name = "viewing feed"
    private let feed: DatabaseLineFeed

    init(url: String, instance: String, history: ViewingHistory, plays: PlayStatisticsTask, logger: Logger) {
        feed = DatabaseLineFeed(url: url, hold: 0, names: ViewingEvents.names.map(\.rawValue),
                                application: "dynamic-home viewing feed", logger: logger) { batch in
            for row in batch.late + batch.ordered where row.key.instance != instance {
                guard let event = try? ReportEvent(jsonLine: row.line) else { continue }
                history.applyDatabase(event)
                plays.record(event)
            }
        }
    }

    func start() throws { try feed.start() }

    func shutdown() { feed.shutdown() }
}

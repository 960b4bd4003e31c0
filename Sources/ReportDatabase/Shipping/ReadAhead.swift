import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The next batch, read on its own thread while the current batch's transaction runs: reading
/// and parsing the lines and PostgreSQL's work on the last batch then overlap on two cores
/// instead of taking turns. Used only if the transaction moved the position to where it starts.
/// Made only after a full batch: in a backlog.
final class ReadAhead: Sendable {
    let start: ShipPosition
    private let slot = Slot()
    private let worker: WorkerThread?

    private final class Slot: Sendable {
        let value = Mutex<(batch: ShipBatch, readAt: Date)?>(nil)
    }

    init(_ source: SegmentSource, from start: ShipPosition, maxLines: Int, instance: String) {
        self.start = start
        let slot = slot
        worker = try? WorkerThread(name: "report-read-ahead") {
            let readAt = Date()
            let batch = ShipBatch.read(source, from: start, maxLines: maxLines, instance: instance, backlog: true)
            slot.value.withLock { $0 = (batch, readAt) }
        }
    }

    /// Waits for the read; nil if the thread could not be started.
    func take() -> (batch: ShipBatch, readAt: Date)? {
        worker?.join()
        return slot.value.withLock { value in
            defer { value = nil }
            return value
        }
    }
}

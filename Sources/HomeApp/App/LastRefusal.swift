import Basics
import Foundation
import Synchronization

/// The last change to a watched file (content, toggles) that the server refused, with why and
/// when, until a later change is accepted: the refusal reached only the log, and the report pages
/// show it (`RefusedChangeNotice`).
final class LastRefusal: Sendable {
    struct Refusal: Sendable, Equatable {
        let message: String
        let at: Date
        /// The refused file's stamp: a file put back as it was loads as "unchanged", yet is a
        /// change accepted (`acceptedIfChanged`).
        let stamp: FileStamp?
    }

    private let value = Mutex<Refusal?>(nil)

    var current: Refusal? { value.withLock { $0 } }

    func refused(_ message: String, at date: Date = Date(), stamp: FileStamp? = nil) {
        value.withLock { $0 = Refusal(message: message, at: date, stamp: stamp) }
    }

    /// Clears a refusal whose file has changed since: called when a reload found nothing new,
    /// which after a refusal means the file now loads and holds what is in force.
    func acceptedIfChanged(_ stamp: FileStamp?) {
        value.withLock { refusal in
            if let known = refusal?.stamp, known != stamp { refusal = nil }
        }
    }

    func accepted() {
        value.withLock { $0 = nil }
    }
}

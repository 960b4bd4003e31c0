#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReportDatabase
import Synchronization

/// Uploads reviewed but not yet applied, kept in memory under a random id so "Apply" on the
/// review page need not send the file again. Bounded: the oldest go first, and each lapses. With
/// a database they are kept there too: behind a balancer "Apply" may reach another instance.
final class StagedUploads: Sendable {
    static let limit = 4
    static let lifetime: TimeInterval = 30 * 60

    private struct Upload {
        let text: String
        let filename: String
        let staged: Date
    }

    private let uploads = Mutex<[String: Upload]>([:])
    private let database: DatabaseConfigVersions?

    init(database: DatabaseConfigVersions? = nil) { self.database = database }

    /// Keeps `text`; the id to apply it by.
    func stage(_ text: String, filename: String, now: Date = Date()) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = String(generator.next() as UInt64, radix: 16) + String(generator.next() as UInt64, radix: 16)
        uploads.withLock { uploads in
            uploads = uploads.filter { now.timeIntervalSince($0.value.staged) < Self.lifetime }
            while uploads.count >= Self.limit, let oldest = uploads.min(by: { $0.value.staged < $1.value.staged }) {
                uploads[oldest.key] = nil
            }
            uploads[id] = Upload(text: text, filename: filename, staged: now)
        }
        // Without the database the review still works here; only another instance cannot apply it.
        try? database?.stage(id, text: text, filename: filename, lifetime: Self.lifetime)
        return id
    }

    /// The upload staged under `id`, unless it lapsed or was pushed out.
    func upload(_ id: String, now: Date = Date()) -> (text: String, filename: String)? {
        let local: (text: String, filename: String)? = uploads.withLock { uploads in
            guard let upload = uploads[id], now.timeIntervalSince(upload.staged) < Self.lifetime else { return nil }
            return (upload.text, upload.filename)
        }
        return local ?? (try? database?.staged(id, lifetime: Self.lifetime)) ?? nil
    }

    func remove(_ id: String) { uploads.withLock { $0[id] = nil } }
}

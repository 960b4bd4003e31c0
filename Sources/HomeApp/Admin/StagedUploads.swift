import Foundation
import Synchronization

/// Uploads reviewed but not yet applied, kept in memory under a random id so "Apply" on the
/// review page need not send the file again. Bounded: the oldest go first, and each lapses.
final class StagedUploads: Sendable {
    static let limit = 4
    static let lifetime: TimeInterval = 30 * 60

    private struct Upload {
        let text: String
        let filename: String
        let staged: Date
    }

    private let uploads = Mutex<[String: Upload]>([:])

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
        return id
    }

    /// The upload staged under `id`, unless it lapsed or was pushed out.
    func upload(_ id: String, now: Date = Date()) -> (text: String, filename: String)? {
        uploads.withLock { uploads in
            guard let upload = uploads[id], now.timeIntervalSince(upload.staged) < Self.lifetime else { return nil }
            return (upload.text, upload.filename)
        }
    }

    func remove(_ id: String) { uploads.withLock { $0[id] = nil } }
}

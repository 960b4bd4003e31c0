import Foundation

/// What the watcher compares between polls: a file's modification time and size
/// (an editor that rewrites within the same mtime tick almost always changes the size).
struct FileSignature: Equatable, Sendable {
    let modified: Date?
    let size: Int?

    /// The signature of the file at `url`, or nil when it cannot be examined (missing, no permission).
    init?(of url: URL) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        modified = attributes[.modificationDate] as? Date
        switch attributes[.size] {
        case let size as Int: self.size = size
        case let size as UInt64: self.size = Int(clamping: size)
        case let size as NSNumber: self.size = size.intValue
        default: self.size = nil
        }
    }
}

import Foundation
import Synchronization

/// Holds the current toggles from a file; read from any thread, reloaded from another.
/// Readers get an immutable snapshot; a bad new file never replaces a good one.
public final class ToggleRouter: Sendable {
    /// What a reload did.
    public enum ReloadOutcome: Sendable, Equatable {
        /// The file did not change (or holds the same toggles).
        case unchanged
        /// New toggles are in force.
        case reloaded(Toggles)
        /// The file is bad; the previous toggles stay in force. Log the error.
        case rejected(TogglesError)
    }

    struct State {
        var toggles: Toggles
        /// The file's identity, size and modification time at the last load attempt.
        var stamp: FileStamp?
    }

    /// The toggles file, as given.
    public let path: String
    let state: Mutex<State>

    /// Loads `path`; throws (naming the file and field) if it is missing or invalid.
    public init(path: String) throws(TogglesError) {
        self.path = path
        let stamp = FileStamp(path: path)
        let toggles = try Self.load(path)
        state = Mutex(State(toggles: toggles, stamp: stamp))
    }

    /// A router with fixed toggles and no file behind it (reloads are rejected).
    public init(toggles: Toggles) {
        path = ""
        state = Mutex(State(toggles: toggles, stamp: nil))
    }

    /// The toggles in force.
    public var toggles: Toggles { state.withLock { $0.toggles } }

    /// Decisions from the toggles in force.
    public var decisions: FeatureDecisions { FeatureDecisions(toggles: toggles) }

    /// Re-reads the file; on a bad file keeps the current toggles and returns why.
    @discardableResult
    public func reload() -> ReloadOutcome {
        reload(stamp: FileStamp(path: path))
    }

    /// Reloads only if the file's identity, size or modification time changed since the last attempt
    /// (cheap enough to poll every second or two).
    @discardableResult
    public func reloadIfChanged() -> ReloadOutcome {
        let stamp = FileStamp(path: path)
        guard !path.isEmpty, stamp != state.withLock({ $0.stamp }) else { return .unchanged }
        return reload(stamp: stamp)
    }

    func reload(stamp: FileStamp?) -> ReloadOutcome {
        guard !path.isEmpty else {
            return .rejected(TogglesError(file: "(built-in toggles)", field: nil, reason: "has no file to reload"))
        }
        let loaded: Toggles
        do {
            loaded = try Self.load(path)
        } catch {
            state.withLock { $0.stamp = stamp }
            return .rejected(error)
        }
        return state.withLock { state in
            state.stamp = stamp
            guard state.toggles != loaded else { return .unchanged }
            state.toggles = loaded
            return .reloaded(loaded)
        }
    }

    static func load(_ path: String) throws(TogglesError) -> Toggles {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            throw TogglesError(file: path, field: nil, reason: "does not exist")
        } catch {
            throw TogglesError(file: path, field: nil, reason: "cannot be read (\(error.localizedDescription))")
        }
        return try Toggles(json: data, file: path)
    }
}

/// Enough of a file's metadata to notice that it changed.
struct FileStamp: Equatable {
    var inode: UInt64
    var size: UInt64
    var modified: Date

    init?(path: String) {
        guard !path.isEmpty, let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        modified = attributes[.modificationDate] as? Date ?? .distantPast
    }
}

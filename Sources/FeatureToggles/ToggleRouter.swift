import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        try Toggles(json: try readFile(path), file: path)
    }

    /// The file's bytes, or an error that says why not (`does not exist`, `is a directory`, …).
    static func readFile(_ path: String) throws(TogglesError) -> Data {
        func failure(_ code: Int32) -> TogglesError {
            let reason = code == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(code))))"
            return TogglesError(file: path, field: nil, reason: reason)
        }
        // Non-blocking: opening a named pipe would otherwise wait for a writer, holding up every
        // reload and shutdown; only a regular file is read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw failure(errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(errno) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw failure(EISDIR) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TogglesError(file: path, field: nil, reason: "is not a regular file")
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure(errno) }
            if count == 0 { return data }
            guard data.count + count <= 1 << 20 else {
                throw TogglesError(file: path, field: nil, reason: "is larger than 1 MiB; is it the right file?")
            }
            data.append(contentsOf: chunk[0..<count])
        }
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

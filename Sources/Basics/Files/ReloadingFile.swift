#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A value loaded from a file and loaded again when the file changes; read from any thread.
///
/// Readers get the value in force and its version (1 after the first load, one more for each
/// new value). A load that fails keeps the previous value and says why; the file is not tried
/// again until it changes.
public final class ReloadingFile<Value: Sendable, Failure: Error>: Sendable {
    /// What a reload did.
    public enum Outcome {
        /// The file did not change, or gave the same value.
        case unchanged
        /// A new value is in force under `version`.
        case reloaded(Value, version: Int)
        /// The file is bad; the previous value stays in force.
        case rejected(Failure)
    }

    @usableFromInline
    struct State {
        @usableFromInline var value: Value
        @usableFromInline var version: Int
        var stamp: FileStamp?
        var rejection: ReloadRejection?
    }

    /// The file, as given.
    public let path: String
    private let load: @Sendable (String) throws(Failure) -> Value
    private let same: @Sendable (Value, Value) -> Bool
    @usableFromInline let state: Mutex<State>
    private let rejections = Atomic<Int>(0)
    /// One reload at a time, so versions follow the order of the files read.
    private let reloading = Mutex<Void>(())

    /// Loads `path` with `load`, or throws what it threw. `same` tells a value that did not
    /// change (a reload that gives it is `unchanged` and keeps the version).
    public init(path: String, same: @escaping @Sendable (Value, Value) -> Bool = { _, _ in false },
                load: @escaping @Sendable (String) throws(Failure) -> Value) throws(Failure) {
        self.path = path
        self.load = load
        self.same = same
        let stamp = FileStamp(path: path)
        let value = try load(path)
        state = Mutex(State(value: value, version: 1, stamp: stamp))
    }

    /// The value in force and its version; read it once per request. Inlinable, so that it is
    /// specialised where it is read: unspecialised, every call looked up the metadata of
    /// `Mutex<State>` for its `Value` (about 2,000 instructions a call, twice per home page).
    @inlinable
    public var current: (value: Value, version: Int) {
        state.withLock { ($0.value, $0.version) }
    }

    /// The version in force alone: a reader that keeps what it made of a version asks this first,
    /// and copies the value (a retain and a release of each of its references) only when it changed.
    @inlinable
    public var version: Int { state.withLock { $0.version } }

    /// Reloads refused since start (the previous value kept serving), for `/metrics`.
    public var rejectedReloads: Int { rejections.load(ordering: .relaxed) }

    /// The last refused reload, until a later one loads the file (whether or not its value changed).
    public var lastRejection: ReloadRejection? { state.withLock { $0.rejection } }

    /// Loads the file again now.
    @discardableResult
    public func reload() -> Outcome {
        reloading.withLock { _ in reload(stamp: FileStamp(path: path)) }
    }

    /// Loads the file again if its identity, size or times changed since the last try: cheap
    /// enough to poll every second.
    @discardableResult
    public func reloadIfChanged() -> Outcome {
        reloading.withLock { _ in
            let stamp = FileStamp(path: path)
            guard stamp != state.withLock({ $0.stamp }) else { return .unchanged }
            return reload(stamp: stamp)
        }
    }

    private func reload(stamp: FileStamp?) -> Outcome {
        let loaded: Value
        do {
            // The stamp is taken before reading, so a write during the read is a change next time.
            loaded = try load(path)
        } catch {
            let rejection = ReloadRejection(message: "\(error)", time: Date())
            state.withLock {
                $0.stamp = stamp
                $0.rejection = rejection
            }
            rejections.add(1, ordering: .relaxed)
            return .rejected(error)
        }
        return state.withLock { state in
            state.stamp = stamp
            state.rejection = nil
            guard !same(state.value, loaded) else { return .unchanged }
            state.value = loaded
            state.version += 1
            return .reloaded(loaded, version: state.version)
        }
    }
}

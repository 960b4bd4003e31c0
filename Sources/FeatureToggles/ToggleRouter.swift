import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Holds the current toggles from a file; read from any thread, reloaded from another.
/// Readers get an immutable snapshot; a bad new file never replaces a good one.
/// (A toggle router in the feature-toggle sense: it routes code paths, not requests.)
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

    /// The toggles file, as given.
    public let path: String
    /// The layouts the app has; a file naming another is refused. Nil checks names only by form.
    public let layouts: [String]?
    /// The toggles with their decisions prepared: made once per version, shared by every request.
    private let file: ReloadingFile<FeatureDecisions, TogglesError>

    /// Loads `path`; throws (naming the file and field) if it is missing or invalid, or names a
    /// layout not in `layouts`.
    public init(path: String, layouts: [String]? = nil) throws(TogglesError) {
        self.path = path
        self.layouts = layouts
        file = try ReloadingFile(path: path, same: ==) { path throws(TogglesError) in
            FeatureDecisions(toggles: try Self.load(path, layouts: layouts))
        }
    }

    /// The toggles in force.
    public var toggles: Toggles { file.current.value.toggles }

    /// The toggles' version: 1 at start, up by one per accepted change.
    public var version: Int { file.current.version }

    /// Reloads refused because the file was bad.
    public var rejectedReloads: Int { file.rejectedReloads }

    /// The last refused change (the error and when), until the file loads again.
    public var lastRejection: ReloadRejection? { file.lastRejection }

    /// Decisions from the toggles in force.
    public var decisions: FeatureDecisions { file.current.value }

    /// Re-reads the file; on a bad file keeps the current toggles and returns why.
    @discardableResult
    public func reload() -> ReloadOutcome {
        Self.outcome(file.reload())
    }

    /// Reloads only if the file's identity, size or times changed since the last attempt
    /// (cheap enough to poll every second or two).
    @discardableResult
    public func reloadIfChanged() -> ReloadOutcome {
        Self.outcome(file.reloadIfChanged())
    }

    private static func outcome(_ outcome: ReloadingFile<FeatureDecisions, TogglesError>.Outcome) -> ReloadOutcome {
        switch outcome {
        case .unchanged: .unchanged
        case .reloaded(let decisions, _): .reloaded(decisions.toggles)
        case .rejected(let error): .rejected(error)
        }
    }

    static func load(_ path: String, layouts: [String]?) throws(TogglesError) -> Toggles {
        let toggles = try Toggles(json: try readFile(path), file: path)
        if let layouts { try toggles.checkLayouts(layouts, file: path) }
        return toggles
    }

    /// The file's bytes, or an error that says why not (`does not exist`, `is a directory`, …).
    static func readFile(_ path: String) throws(TogglesError) -> Data {
        do {
            return try BoundedFile.read(path, limit: 1 << 20)
        } catch {
            let reason = switch error {
            case .system(ENOENT): "does not exist"
            case .system(let code): "cannot be read (\(String(cString: strerror(code))))"
            case .directory: "cannot be read (\(String(cString: strerror(EISDIR))))"
            case .notRegular: "is not a regular file"
            case .tooLarge: "is larger than 1 MiB; is it the right file?"
            }
            throw TogglesError(file: path, field: nil, reason: reason)
        }
    }
}

import Logging
import Synchronization

/// One store per directory per process: a log registers its own, so readers by path see its
/// live rollups instead of rebuilding them.
extension ReportStore {
    private struct Weak: @unchecked Sendable {
        weak var store: ReportStore?
    }

    private static let registry = Mutex<[String: Weak]>([:])

    static func key(_ directory: String) -> String {
        var path = directory
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    func register() {
        Self.registry.withLock { $0[Self.key(directory)] = Weak(store: self) }
    }

    /// The store of a directory: the one its log registered, else one opened (and kept) for it.
    public static func shared(directory: String, logger: Logger = Logger(label: "report-store")) throws -> ReportStore {
        let key = key(directory)
        if let store = registry.withLock({ $0[key]?.store }) { return store }
        let store = try ReportStore(directory: directory, logger: logger)
        return registry.withLock { registry in
            if let existing = registry[key]?.store { return existing }
            registry[key] = Weak(store: store)
            return store
        }
    }
}

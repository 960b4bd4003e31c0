import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// Holds the catalogue in force and replaces it when the file changes.
///
/// Request threads read `snapshot`; reloads build the new catalogue outside any lock a request
/// takes and swap it in, so a slow or bad file never blocks a request. A bad new file is logged
/// and the previous catalogue keeps serving. As a service it polls the file while it runs.
public final class ContentStore: Startable {
    public let name = "content watcher"
    /// The content file this store reads.
    public let fileURL: URL
    /// When set, every item's image must exist below this directory.
    public let publicDirectory: URL?
    private let pollInterval: TimeInterval
    private let logger: Logger
    private let file: ReloadingFile<ContentCatalog, ContentCatalogError>
    private let watcher = Mutex<PeriodicTask?>(nil)

    /// Loads the file or throws the message that should stop start-up; the first version is 1.
    public init(
        contentsOf fileURL: URL,
        publicDirectory: URL? = nil,
        pollInterval: TimeInterval = 1,
        logger: Logger = Logger(label: "HomeApp.content")
    ) throws(ContentCatalogError) {
        self.fileURL = fileURL
        self.publicDirectory = publicDirectory
        self.pollInterval = pollInterval
        self.logger = logger
        file = try ReloadingFile(path: fileURL.path) { path throws(ContentCatalogError) in
            try ContentCatalog.load(contentsOf: URL(fileURLWithPath: path), publicDirectory: publicDirectory)
        }
        logger.info("Content loaded", metadata: ["file": "\(fileURL.relativePath)", "items": "\(catalog.items.count)"])
    }

    /// The catalogue and version in force; read it once per request.
    public var snapshot: ContentSnapshot {
        let current = file.current
        return ContentSnapshot(catalog: current.value, version: current.version)
    }

    /// The catalogue in force.
    public var catalog: ContentCatalog { snapshot.catalog }

    /// The version in force: 1 after start-up, one more after each successful reload.
    public var version: Int { file.version }

    /// Reloads refused since start (the previous catalogue kept serving).
    public var rejectedReloads: Int { file.rejectedReloads }

    /// The last refused change (the error and when), until the file loads again.
    public var lastRejection: ReloadRejection? { file.lastRejection }

    /// Re-reads the file now (the app calls this on SIGHUP); on success publishes it under the next
    /// version and returns that version, otherwise logs why and keeps the old catalogue.
    @discardableResult
    public func reload() -> Result<Int, ContentCatalogError> {
        report(file.reload())
    }

    /// Starts polling the file; a change reloads it. Starting again does nothing.
    public func start() throws {
        try watcher.withLock { watcher in
            guard watcher == nil else { return }
            let task = PeriodicTask(name: "content", every: max(0.01, pollInterval)) { [weak self] in
                guard let self else { return }
                _ = self.report(self.file.reloadIfChanged())
            }
            try task.start()
            watcher = task
        }
    }

    /// Stops polling; `reload()` keeps working.
    public func shutdown() {
        watcher.withLock { watcher in
            defer { watcher = nil }
            return watcher
        }?.shutdown()
    }

    private func report(_ outcome: ReloadingFile<ContentCatalog, ContentCatalogError>.Outcome) -> Result<Int, ContentCatalogError> {
        switch outcome {
        case .unchanged:
            return .success(version)
        case .reloaded(let catalog, let version):
            logger.info("Content reloaded", metadata: [
                "file": "\(fileURL.relativePath)", "version": "\(version)", "items": "\(catalog.items.count)",
            ])
            return .success(version)
        case .rejected(let error):
            let kept = version
            logger.error("Content file rejected, still serving version \(kept): \(error)")
            return .failure(error)
        }
    }
}

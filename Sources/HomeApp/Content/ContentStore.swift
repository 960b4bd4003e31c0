import Dispatch
import Foundation
import Logging

/// Holds the catalogue in force and replaces it when the file changes.
///
/// Request threads read `snapshot` (one lock, one copy of a reference); reloads build the new
/// catalogue outside that lock and swap it in, so a slow or bad file never blocks a request.
/// A bad new file is logged and the previous catalogue keeps serving.
public final class ContentStore: @unchecked Sendable {
    // @unchecked: all mutable state is guarded by `stateLock`; `reloadLock` only orders reloads.

    /// The content file this store reads.
    public let fileURL: URL
    /// When set, every item's image must exist below this directory.
    public let publicDirectory: URL?
    private let pollInterval: TimeInterval
    private let logger: Logger
    private let stateLock = NSLock()
    private let reloadLock = NSLock()
    private let watchQueue = DispatchQueue(label: "HomeApp.ContentStore.watch")
    private var current: ContentSnapshot
    private var lastSignature: FileSignature?
    private var timer: (any DispatchSourceTimer)?

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
        lastSignature = FileSignature(of: fileURL)
        let catalog = try ContentCatalog.load(contentsOf: fileURL, publicDirectory: publicDirectory)
        current = ContentSnapshot(catalog: catalog, version: 1)
        logger.info("Content loaded", metadata: ["file": "\(fileURL.relativePath)", "items": "\(catalog.items.count)"])
    }

    deinit {
        timer?.cancel()
    }

    /// The catalogue and version in force; read it once per request.
    public var snapshot: ContentSnapshot {
        withState { current }
    }

    /// The catalogue in force.
    public var catalog: ContentCatalog { snapshot.catalog }

    /// The version in force: 1 after start-up, one more after each successful reload.
    public var version: Int { snapshot.version }

    /// Re-reads the file now (the app calls this on SIGHUP); on success publishes it under the next
    /// version and returns that version, otherwise logs why and keeps the old catalogue.
    @discardableResult
    public func reload() -> Result<Int, ContentCatalogError> {
        reloadLock.lock()
        defer { reloadLock.unlock() }
        // Taken before reading, so a write during the read shows up as a change at the next poll.
        let signature = FileSignature(of: fileURL)
        withState { lastSignature = signature }
        do {
            let catalog = try ContentCatalog.load(contentsOf: fileURL, publicDirectory: publicDirectory)
            let version = withState {
                current = ContentSnapshot(catalog: catalog, version: current.version + 1)
                return current.version
            }
            logger.info("Content reloaded", metadata: [
                "file": "\(fileURL.relativePath)", "version": "\(version)", "items": "\(catalog.items.count)",
            ])
            return .success(version)
        } catch {
            let kept = version
            logger.error("Content file rejected, still serving version \(kept): \(error)")
            return .failure(error)
        }
    }

    /// Starts polling the file's modification time and size; a change triggers `reload()`.
    public func start() {
        withState {
            guard timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: watchQueue)
            let interval = DispatchTimeInterval.milliseconds(max(10, Int(pollInterval * 1000)))
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
            timer.setEventHandler { [weak self] in self?.poll() }
            timer.resume()
            self.timer = timer
        }
    }

    /// Stops polling; `reload()` keeps working.
    public func stop() {
        withState {
            timer?.cancel()
            timer = nil
        }
    }

    private func poll() {
        let signature = FileSignature(of: fileURL)
        // A missing or unreadable file is reported once, then ignored until it changes again.
        if withState({ signature != lastSignature }) {
            reload()
        }
    }

    private func withState<T>(_ body: () throws -> T) rethrows -> T {
        stateLock.lock()
        defer { stateLock.unlock() }
        return try body()
    }
}

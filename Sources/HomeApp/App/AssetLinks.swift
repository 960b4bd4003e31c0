import MicroHTTP
import ScreenKit
import Synchronization

/// The fingerprinted URL of every file under `/assets/` that pages link, kept current: read at
/// start (which also compresses the text files), looked at again on the reload interval. An edit
/// bumps `version`, so cached pages made with the old URLs are made again.
final class AssetLinks: Sendable {
    static let prefix = "/assets/"
    private let files: StaticFiles
    private let state = Mutex<(urls: [String: String], version: Int)>(([:], 0))
    /// The folder's signature when its files were last read; touched only by `refresh`.
    private let seen = Mutex<UInt64?>(nil)

    init(files: StaticFiles) {
        self.files = files
        refresh()
    }

    /// Plain URL → fingerprinted URL, as a render context takes it.
    var urls: [String: String] { state.withLock { $0.urls } }

    /// Changes whenever a linked file does.
    var version: Int { state.withLock { $0.version } }

    /// Looks at the files again; true when a URL changed.
    @discardableResult
    func refresh() -> Bool {
        let signature = files.signature()
        guard seen.withLock({ seen in defer { seen = signature }; return seen != signature }) else { return false }
        var urls: [String: String] = [:]
        for (plain, fingerprinted) in files.fingerprints() { urls[Self.prefix + plain] = Self.prefix + fingerprinted }
        return state.withLock { state in
            guard state.urls != urls else { return false }
            state = (urls, state.version + 1)
            return true
        }
    }

    /// `context` with these URLs in it.
    func apply(to context: RenderContext) -> RenderContext {
        var context = context
        context[AssetURLs.self] = urls
        return context
    }
}

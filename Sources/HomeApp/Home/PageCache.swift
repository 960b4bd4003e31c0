import ScreenKit
import Synchronization

/// Rendered home pages, one per layout and onboarding state, for the current content version and
/// display state (a stream going live or a new day changes the page). A hit costs no render:
/// the cached bytes go out with the visitor's CSRF token spliced in.
final class PageCache: Sendable {
    struct Key: Hashable {
        let layout: String
        let contentVersion: Int
        let display: HomeItemsCache.DisplayState
        let withOnboarding: Bool
    }

    private let pages = Mutex<[Key: PageTemplate]>([:])

    func page(for key: Key) -> PageTemplate? { pages.withLock { $0[key] } }

    /// Stores `page`, dropping pages of other content versions and display states.
    func store(_ page: PageTemplate, for key: Key) {
        pages.withLock { pages in
            pages = pages.filter { $0.key.contentVersion == key.contentVersion && $0.key.display == key.display }
            pages[key] = page
        }
    }
}

import ScreenKit
import Synchronization

/// Rendered home pages, one per layout and onboarding state, for the current content version.
/// A hit costs one copy with the visitor's CSRF token spliced in, instead of a render.
final class PageCache: Sendable {
    struct Key: Hashable {
        let layout: String
        let contentVersion: Int
        let withOnboarding: Bool
    }

    private let pages = Mutex<[Key: PageTemplate]>([:])

    func page(for key: Key) -> PageTemplate? { pages.withLock { $0[key] } }

    /// Stores `page`, dropping pages of older content versions.
    func store(_ page: PageTemplate, for key: Key) {
        pages.withLock { pages in
            pages = pages.filter { $0.key.contentVersion == key.contentVersion }
            pages[key] = page
        }
    }
}

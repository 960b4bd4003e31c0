import MicroHTTP
import Reporting
import Synchronization

/// Rendered home pages, one per layout and onboarding state, for the current content version and
/// display state (a stream going live or a new day changes the page). A hit costs no render and
/// builds no controllers: the cached bytes go out with the visitor's CSRF token and own rows spliced in, and
/// the events the controllers reported while rendering are reported again for the visit.
final class PageCache: Sendable {
    struct Key: Equatable {
        let layout: String
        let contentVersion: Int
        let display: HomeItemsCache.DisplayState
        let withOnboarding: Bool
        /// `AssetLinks.version`: a page links its files by their versioned names.
        let assets: Int
        /// `PlayStatistics.version`: the page shows Trending now.
        let plays: Int
        /// Whether the page shows Trending now: the toggles may switch it off for some visitors.
        let trending: Bool
    }

    /// A class: a hit hands out one reference, where a struct's four fields were retained each.
    final class Page: Sendable {
        /// The rendered bytes with holes where the CSRF token goes, and the slot where a
        /// visitor's own rows go.
        let spliced: SplicedBytes
        let events: [EventTrace.Event]
        /// The events' templates, the lines of a visit in no experiment.
        let templates: [EventTemplate]
        /// The lines of visits in experiments, by their groups.
        let grouped = GroupedTemplates()

        init(spliced: SplicedBytes, events: [EventTrace.Event]) {
            self.spliced = spliced
            self.events = events
            templates = events.map(\.template)
        }
    }

    /// A handful at most (layouts × onboarding states): a scan compares fewer bytes than a
    /// dictionary hashes, and this runs on every home request.
    private let pages = Mutex<[(key: Key, page: Page)]>([])

    func page(for key: Key) -> Page? {
        pages.withLock { pages in
            // By index: `first(where:)` copied each entry through the tuple's generic metadata.
            for index in pages.indices where pages[index].key == key { return pages[index].page }
            return nil
        }
    }

    /// Stores `page`, dropping pages of other content versions and display states.
    func store(_ page: Page, for key: Key) {
        pages.withLock { pages in
            pages.removeAll { $0.key == key || $0.key.contentVersion != key.contentVersion || $0.key.display != key.display
                || $0.key.assets != key.assets || $0.key.plays != key.plays }
            pages.append((key, page))
        }
    }
}

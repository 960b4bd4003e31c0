import ScreenKit

/// The state every child draws from; the container sets `items`, each child's subclass decides
/// how they fall into sections.
open class BaseHomeViewModel {
    /// Everything to show, in catalogue order.
    public var items: [any HomeItem] = [] { didSet { arranged = nil } }
    /// The items in this child's sections, arranged when first needed: a cached page never is.
    public var sections: [HomeSection] {
        if let arranged { return arranged }
        let sections = arrange(items)
        arranged = sections
        return sections
    }
    private var arranged: [HomeSection]?
    /// The visitor's own rows, drawn above the sections; only rows with entries are given.
    public var rows: [HomeRow] = []
    /// The grid's row scrolled on by its "more" button (without JavaScript); others ignore it.
    public var scrollPosition: HomeIndexPath?
    /// Shown when there are no items, e.g. a search with no match.
    public var emptyMessage: QuotedInput = "Nothing to watch right now."
    /// A heading above the sections, e.g. the search that found them.
    public var heading: QuotedInput?
    /// The child's layout name, posted back so the right child decodes the form.
    public internal(set) var layout = ""
    /// Where the child's form posts.
    public internal(set) var formAction = "/home/actions"
    /// Hidden fields the container adds to the child's form, such as the catalogue version the
    /// positions in it refer to.
    public var hiddenFields: [(name: String, value: String)] = []
    /// A preview draws without a form or buttons.
    public internal(set) var isPreview = false
    /// The layout the child's switch button offers, and its label.
    public var alternative: (layout: String, title: String)?

    public required init() {}

    /// The kinds in the order this child shows them.
    open var sectionOrder: [HomeItemKind] { HomeItemKind.allCases }

    /// The item at `path` in this child's own order.
    public func item(at path: HomeIndexPath) -> (any HomeItem)? {
        guard sections.indices.contains(path.section), sections[path.section].items.indices.contains(path.item)
        else { return nil }
        return sections[path.section].items[path.item]
    }

    /// Where `identifier` sits in this child's order.
    public func indexPath(of identifier: String) -> HomeIndexPath? {
        for (section, content) in sections.enumerated() {
            if let item = content.items.firstIndex(where: { $0.identifier == identifier }) {
                return HomeIndexPath(section: section, item: item)
            }
        }
        return nil
    }

    /// One pass over the items, each copied once into its kind's section (a form post arranges
    /// the whole catalogue to find the row it names).
    private func arrange(_ items: [any HomeItem]) -> [HomeSection] {
        let order = sectionOrder
        var matching = [[any HomeItem]](repeating: [], count: order.count)
        for item in items {
            if let slot = order.firstIndex(of: item.category) { matching[slot].append(item) }
        }
        return zip(order, matching).compactMap { kind, items in items.isEmpty ? nil : HomeSection(kind: kind, items: items) }
    }
}

/// The list: films first, then clips, then live streams.
public final class ListHomeViewModel: BaseHomeViewModel {}

/// The grid: live streams first, then films and clips.
public final class GridHomeViewModel: BaseHomeViewModel {
    /// Tiles a "more" press moves a row on.
    public static let scrollStep = 4

    public override var sectionOrder: [HomeItemKind] { [.live, .long, .short] }

    /// Where row `section`'s "more" button scrolls to next; back to the start after the end.
    public func nextScrollTarget(forSection section: Int) -> HomeIndexPath {
        let current = scrollPosition?.section == section ? scrollPosition!.item : 0
        let next = current + Self.scrollStep
        return HomeIndexPath(section: section, item: next < sections[section].items.count ? next : 0)
    }
}

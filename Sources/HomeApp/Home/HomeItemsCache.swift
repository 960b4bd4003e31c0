import HomeTemplates
import Synchronization

/// The catalogue boxed as `[any HomeItem]` once per content version, not once per request.
final class HomeItemsCache: Sendable {
    private let cached = Mutex<(version: Int, items: [any HomeItem])>((0, []))

    func items(for snapshot: ContentSnapshot) -> [any HomeItem] {
        if let hit = cached.withLock({ $0.version == snapshot.version ? $0.items : nil }) { return hit }
        let items = snapshot.catalog.items.map { $0 as any HomeItem }
        cached.withLock { $0 = (snapshot.version, items) }
        return items
    }
}

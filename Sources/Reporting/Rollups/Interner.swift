import Synchronization

/// Numbers the strings the rollups count by (event names, layouts, items, experiments, groups), so
/// rollup keys are small integers. 0 stands for "none". Shared by the writer and the readers; the
/// writer keeps its own cache in front of it, so the lock is taken only for a string never seen.
final class Interner: Sendable {
    private struct Table {
        var ids: [String: UInt32] = [:]
        var names: [String] = [""]
    }

    private let table = Mutex(Table())

    /// The string's id, numbering it if new.
    func intern(_ string: String) -> UInt32 {
        table.withLock { table in
            if let id = table.ids[string] { return id }
            let id = UInt32(table.names.count)
            table.ids[string] = id
            table.names.append(string)
            return id
        }
    }

    /// The string's id if it was ever numbered; nil means no rollup counts it.
    func existingID(_ string: String) -> UInt32? { table.withLock { $0.ids[string] } }

    /// Every string by id (index 0 is "").
    var names: [String] { table.withLock { $0.names } }
}

/// The writer's lock-free front to an `Interner`.
struct InternCache {
    let interner: Interner
    private var cache = StringTable()

    init(interner: Interner) { self.interner = interner }

    mutating func id(_ string: String?) -> UInt32 {
        guard let string else { return 0 }
        if let id = cache.find(string) { return id }
        let id = interner.intern(string)
        cache.insert(string, id: id)
        return id
    }
}

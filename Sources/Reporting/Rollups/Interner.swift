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
    /// Templates' interned name, layout and item, direct-mapped by the template's address: an
    /// event made from a template skips hashing its three strings. Each slot holds its template,
    /// so the address it is keyed by cannot be reused by another while the ids stand. Made at the
    /// first template: the other caches (a scan's, the shipper's counters) never see one.
    private var templateKeys: [ObjectIdentifier?] = []
    private var templateIDs: [TemplateIDs] = []
    /// The experiment groups each template's properties name, as ids (`ReportEvent.forEachExperiment`).
    private var templateGroups: [[ExperimentIDs]] = []
    private var templates: [EventTemplate?] = []
    private static let templateSlots = 64

    init(interner: Interner) { self.interner = interner }

    /// The interned ids of a template's fixed name, layout and item. The interner never renumbers
    /// a string, so they hold for as long as this cache does.
    @inline(__always)
    mutating func ids(of template: EventTemplate) -> TemplateIDs {
        let key = ObjectIdentifier(template)
        // Objects are 16-byte aligned: the bits above those address the slot.
        let slot = Int((UInt(bitPattern: key) >> 4) & UInt(Self.templateSlots - 1))
        if slot < templateKeys.count, templateKeys[slot] == key { return templateIDs[slot] }
        return resolve(template, slot: slot)
    }

    /// The experiment groups a template's properties name, as ids: read only for a template with
    /// properties, after `ids(of:)` resolved it into its slot.
    @inline(__always)
    func experimentGroups(of template: EventTemplate) -> [ExperimentIDs] {
        templateGroups[Int((UInt(bitPattern: ObjectIdentifier(template)) >> 4) & UInt(Self.templateSlots - 1))]
    }

    private mutating func resolve(_ template: EventTemplate, slot: Int) -> TemplateIDs {
        if templateKeys.isEmpty {
            templateKeys = Array(repeating: nil, count: Self.templateSlots)
            templateIDs = Array(repeating: TemplateIDs(name: 0, layout: 0, item: 0), count: Self.templateSlots)
            templateGroups = Array(repeating: [], count: Self.templateSlots)
            templates = Array(repeating: nil, count: Self.templateSlots)
        }
        let ids = TemplateIDs(name: id(template.fixed.name.rawValue), layout: id(template.fixed.layout),
                              item: id(template.fixed.item))
        var groups: [ExperimentIDs] = []
        ReportEvent.forEachExperiment(in: template.fixed.properties) { experiment, group in
            groups.append(ExperimentIDs(experiment: id(experiment), group: id(group)))
        }
        templateKeys[slot] = ObjectIdentifier(template)
        templateIDs[slot] = ids
        templateGroups[slot] = groups
        templates[slot] = template
        return ids
    }

    mutating func id(_ string: String?) -> UInt32 {
        guard let string else { return 0 }
        if let id = cache.find(string) { return id }
        let id = interner.intern(string)
        cache.insert(string, id: id)
        return id
    }
}

/// An experiment and a group of it, as interned ids.
struct ExperimentIDs {
    var experiment: UInt32
    var group: UInt32
}

/// A template's fixed parts as interned ids.
struct TemplateIDs {
    var name: UInt32
    var layout: UInt32
    var item: UInt32
}

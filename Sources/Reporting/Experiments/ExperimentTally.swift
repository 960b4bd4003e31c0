#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One experiment's visitors, exactly: a hash table keyed by the visitor's 64-bit hash in a
/// memory-mapped file (`<log>/experiments/<name>.tally`), so it lives in the page cache, not the
/// heap, and survives restarts; the header holds the group names and their `VisitorSums`, kept
/// up to date with every event so that reading them costs nothing.
///
/// Layout: a 4096-byte header (magic, capacity, used slots, group count, incomplete flag; from byte
/// 64 the groups: name and ten sums each), then
/// 16-byte slots: visitor hash (0 = empty), views (UInt32), selections (UInt16), group, the kinds
/// of selection made (bits). Linear probing; doubled when over 60% full. Only the writer's thread
/// touches it.
final class ExperimentTally {
    enum Kind: UInt8 { case exposure = 0, view, long, short, stream }

    static let magic: UInt64 = 0x3159_4C4C_4154_4844 // "DHTALLY1"
    static let headerBytes = 4096
    static let slotBytes = 16
    static let maxGroups = 8
    static let groupBytes = 160 // name: length byte + 71 bytes; sums: 10 × 8
    static let firstCapacity = 1024

    let name: String
    let path: String
    // Only the writer's thread touches a tally: no exclusivity checks on the hot path.
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used: Int
    @exclusivity(unchecked) private(set) var groupNames: [String]
    /// A group beyond `maxGroups` was met, or a visitor found no room: their events are not counted.
    /// Kept in the header (offset 32), so a restart still says so.
    var uncountedGroups: Bool { base.load(fromByteOffset: 32, as: UInt64.self) != 0 }

    private func markIncomplete() { base.storeBytes(of: UInt64(1), toByteOffset: 32, as: UInt64.self) }

    private init(name: String, path: String, base: UnsafeMutableRawPointer, capacity: Int, used: Int, groupNames: [String]) {
        self.name = name
        self.path = path
        self.base = base
        self.capacity = capacity
        self.used = used
        self.groupNames = groupNames
    }

    deinit { munmap(base, Self.headerBytes + capacity * Self.slotBytes) }

    /// A new, empty tally at `path` (replacing any file there); nil when the file cannot be made.
    static func create(name: String, path: String) -> ExperimentTally? {
        guard let base = map(path, capacity: firstCapacity, create: true) else { return nil }
        base.storeBytes(of: magic, as: UInt64.self)
        base.storeBytes(of: UInt64(firstCapacity), toByteOffset: 8, as: UInt64.self)
        base.storeBytes(of: UInt64(0), toByteOffset: 16, as: UInt64.self)
        base.storeBytes(of: UInt64(0), toByteOffset: 24, as: UInt64.self)
        return ExperimentTally(name: name, path: path, base: base, capacity: firstCapacity, used: 0, groupNames: [])
    }

    /// The tally in `path`; nil when it is missing or not a whole, well-formed tally.
    static func load(name: String, path: String) -> ExperimentTally? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size >= headerBytes else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var header = [UInt8](repeating: 0, count: headerBytes)
        let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, headerBytes, 0) }
        close(fd)
        guard count == headerBytes else { return nil }
        let (magic, capacity, used, groups) = header.withUnsafeBytes {
            ($0.load(as: UInt64.self), Int(truncatingIfNeeded: $0.load(fromByteOffset: 8, as: UInt64.self)),
             Int(truncatingIfNeeded: $0.load(fromByteOffset: 16, as: UInt64.self)),
             Int(truncatingIfNeeded: $0.load(fromByteOffset: 24, as: UInt64.self)))
        }
        guard magic == Self.magic, capacity >= firstCapacity, capacity & (capacity - 1) == 0, capacity <= 1 << 40,
            Int64(info.st_size) == Int64(headerBytes + capacity * slotBytes), (0...capacity).contains(used),
            (0...maxGroups).contains(groups),
            let base = map(path, capacity: capacity, create: false)
        else { return nil }
        var names: [String] = []
        for group in 0..<groups {
            let offset = 64 + group * groupBytes
            let length = Int(base.load(fromByteOffset: offset, as: UInt8.self))
            guard (1...64).contains(length) else {
                munmap(base, headerBytes + capacity * slotBytes)
                return nil
            }
            names.append(String(decoding: UnsafeRawBufferPointer(start: base + offset + 1, count: length), as: UTF8.self))
        }
        return ExperimentTally(name: name, path: path, base: base, capacity: capacity, used: used, groupNames: names)
    }

    private static func map(_ path: String, capacity: Int, create: Bool) -> UnsafeMutableRawPointer? {
        let fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : 0), 0o644)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = headerBytes + capacity * slotBytes
        if create, ftruncate(fd, off_t(size)) != 0 { return nil }
        let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let pointer, pointer != MAP_FAILED else { return nil }
        return pointer
    }

    /// The group's index, adding it while there is room; nil beyond `maxGroups` or for a name
    /// that does not fit.
    func groupIndex(_ group: String) -> UInt8? {
        if let index = groupNames.firstIndex(of: group) { return UInt8(index) }
        let bytes = Array(group.utf8)
        guard groupNames.count < Self.maxGroups, (1...64).contains(bytes.count) else {
            markIncomplete()
            return nil
        }
        let offset = 64 + groupNames.count * Self.groupBytes
        base.storeBytes(of: UInt8(bytes.count), toByteOffset: offset, as: UInt8.self)
        bytes.withUnsafeBytes { (base + offset + 1).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        groupNames.append(group)
        base.storeBytes(of: UInt64(groupNames.count), toByteOffset: 24, as: UInt64.self)
        return UInt8(groupNames.count - 1)
    }

    func sums(_ group: Int) -> VisitorSums {
        var sums = VisitorSums()
        let offset = 64 + group * Self.groupBytes + 72
        for field in 0..<VisitorSums.fieldCount { sums[field: field] = base.load(fromByteOffset: offset + field * 8, as: Int.self) }
        return sums
    }

    private func bump(_ group: Int, _ field: Int, by amount: Int) {
        let offset = 64 + group * Self.groupBytes + 72 + field * 8
        base.storeBytes(of: base.load(fromByteOffset: offset, as: Int.self) &+ amount, toByteOffset: offset, as: Int.self)
    }

    var visitors: ExperimentVisitors {
        ExperimentVisitors(name: name, groups: groupNames.indices.map { (groupNames[$0], sums($0)) },
                           uncountedGroups: uncountedGroups)
    }

    /// Counts one event of a visitor in `group` (the group of their first event wins).
    func add(visitor hash: UInt64, group: UInt8, kind: Kind) {
        if used + 1 > capacity / 10 * 6 { grow() }
        // A table that could not grow (disk full) keeps counting the visitors it has, not new ones.
        let room = used + 1 < capacity
        let key = hash == 0 ? 1 : hash
        let slotsBase = base + Self.headerBytes
        var index = Int(truncatingIfNeeded: key >> 11) & (capacity - 1)
        var slot = slotsBase + index * Self.slotBytes
        while true {
            let stored = slot.load(as: UInt64.self)
            if stored == key { break }
            if stored == 0 {
                guard room else {
                    markIncomplete()
                    return
                }
                slot.storeBytes(of: key, as: UInt64.self)
                slot.storeBytes(of: UInt32(0), toByteOffset: 8, as: UInt32.self)
                slot.storeBytes(of: UInt16(0), toByteOffset: 12, as: UInt16.self)
                slot.storeBytes(of: group, toByteOffset: 14, as: UInt8.self)
                slot.storeBytes(of: UInt8(0), toByteOffset: 15, as: UInt8.self)
                used += 1
                base.storeBytes(of: UInt64(used), toByteOffset: 16, as: UInt64.self)
                bump(Int(group), 0, by: 1)
                break
            }
            index = (index + 1) & (capacity - 1)
            slot = slotsBase + index * Self.slotBytes
        }
        let own = Int(slot.load(fromByteOffset: 14, as: UInt8.self))
        let views = slot.load(fromByteOffset: 8, as: UInt32.self)
        let selections = slot.load(fromByteOffset: 12, as: UInt16.self)
        switch kind {
        case .exposure: return
        case .view:
            // At the counter's limit (a robot) the visitor stops counting, in the sums alike.
            guard views < .max else { return }
            slot.storeBytes(of: views + 1, toByteOffset: 8, as: UInt32.self)
            bump(own, 7, by: 1)
            bump(own, 8, by: 2 * Int(views) + 1)
            bump(own, 9, by: Int(selections))
        case .long, .short, .stream:
            guard selections < .max else { return }
            slot.storeBytes(of: selections + 1, toByteOffset: 12, as: UInt16.self)
            if selections == 0 { bump(own, 1, by: 1) }
            bump(own, 5, by: 1)
            bump(own, 6, by: 2 * Int(selections) + 1)
            bump(own, 9, by: Int(views))
            let bit = UInt8(1) << (kind.rawValue - 2)
            let kinds = slot.load(fromByteOffset: 15, as: UInt8.self)
            if kinds & bit == 0 {
                slot.storeBytes(of: kinds | bit, toByteOffset: 15, as: UInt8.self)
                bump(own, 1 + Int(kind.rawValue - 1), by: 1)
            }
        }
    }

    /// Doubles the table into a new file, then puts it in place of the old one.
    private func grow() {
        let bigger = capacity * 2
        let growing = path + ".grow"
        guard let next = Self.map(growing, capacity: bigger, create: true) else { return }
        next.copyMemory(from: base, byteCount: Self.headerBytes)
        next.storeBytes(of: UInt64(bigger), toByteOffset: 8, as: UInt64.self)
        let from = base + Self.headerBytes, to = next + Self.headerBytes
        for index in 0..<capacity {
            let slot = from + index * Self.slotBytes
            let key = slot.load(as: UInt64.self)
            guard key != 0 else { continue }
            var target = Int(truncatingIfNeeded: key >> 11) & (bigger - 1)
            while (to + target * Self.slotBytes).load(as: UInt64.self) != 0 { target = (target + 1) & (bigger - 1) }
            (to + target * Self.slotBytes).copyMemory(from: slot, byteCount: Self.slotBytes)
        }
        guard rename(growing, path) == 0 else {
            munmap(next, Self.headerBytes + bigger * Self.slotBytes)
            unlink(growing)
            return
        }
        munmap(base, Self.headerBytes + capacity * Self.slotBytes)
        base = next
        capacity = bigger
    }
}

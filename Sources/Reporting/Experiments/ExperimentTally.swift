#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One experiment's visitors, exactly: a hash table keyed by the visitor's 64-bit hash in a
/// memory-mapped file (`<log>/experiments/<name>.tally`), so it lives in the page cache, not the
/// heap, and survives restarts; the header holds the group names and their `VisitorSums`, kept
/// up to date with every event so that reading them costs nothing. The same sums per segment and
/// day of first exposure (`cells`) live in memory, added up from the slots when the tally is loaded.
///
/// Layout: a 4096-byte header (magic, capacity, used slots, group count, incomplete flag; from byte
/// 64 the groups: name and fourteen sums each), then
/// 24-byte slots: visitor hash (0 = empty), views (UInt32), selections (UInt16), group, flags
/// (`VisitorRecord`), the UTC day of first exposure (UInt16, days since 1970), the segment
/// (`VisitorSegment.index`), a spare byte, plays (UInt32). Linear probing; doubled when over 60% full. Only the
/// writer's thread (or, before it goes live, the thread preparing the tallies) touches it.
final class ExperimentTally {
    typealias Kind = VisitorRecord.Kind

    static let magic: UInt64 = 0x3359_4C4C_4154_4844 // "DHTALLY3"
    /// The earlier formats (16-byte slots without segments or days; no plays): rebuilt, not read.
    static let oldMagics: [UInt64] = [0x3159_4C4C_4154_4844, 0x3259_4C4C_4154_4844]
    static let headerBytes = 4096
    static let slotBytes = 24
    static let maxGroups = 8
    static let groupBytes = 184 // name: length byte + 71 bytes; sums: 14 × 8
    static let firstCapacity = 1024

    let name: String
    let path: String
    // Only the writer's thread touches a tally: no exclusivity checks on the hot path.
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used: Int
    @exclusivity(unchecked) private(set) var groupNames: [String]
    /// Day of first exposure → sums per group × segment (`ExperimentVisitors.cells`), but for the
    /// day last changed, whose cells are kept apart (`cellDay`, `dayCells`): most events change
    /// that one, and a look-up in the dictionary hashed its day for each.
    @exclusivity(unchecked) private var cells: [Int32: [VisitorSums]] = [:]
    @exclusivity(unchecked) private var cellDay: Int32?
    @exclusivity(unchecked) private var dayCells: [VisitorSums] = []
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
        let tally = ExperimentTally(name: name, path: path, base: base, capacity: capacity, used: used, groupNames: names)
        tally.addUpCells()
        return tally
    }

    /// The cells from the slots: each visitor's sums into the cell of their group, segment and day.
    private func addUpCells() {
        cells = [:]
        cellDay = nil
        let slots = base + Self.headerBytes
        for index in 0..<capacity {
            let slot = slots + index * Self.slotBytes
            guard slot.load(as: UInt64.self) != 0 else { continue }
            let group = Int(slot.load(fromByteOffset: 14, as: UInt8.self))
            guard group < groupNames.count else { continue }
            cell(day: Int32(slot.load(fromByteOffset: 16, as: UInt16.self)), group * VisitorSegment.count
                 + Int(slot.load(fromByteOffset: 18, as: UInt8.self)) % VisitorSegment.count) { $0.add(Self.record(slot).sums) }
        }
    }

    @inline(__always)
    private static func record(_ slot: UnsafeMutableRawPointer) -> VisitorRecord {
        VisitorRecord(views: slot.load(fromByteOffset: 8, as: UInt32.self), selections: slot.load(fromByteOffset: 12, as: UInt16.self),
                      flags: slot.load(fromByteOffset: 15, as: UInt8.self), plays: slot.load(fromByteOffset: 20, as: UInt32.self))
    }

    @inline(__always)
    private func cell(day: Int32, _ index: Int, _ change: (inout VisitorSums) -> Void) {
        if day != cellDay {
            if let cellDay { cells[cellDay] = dayCells }
            cellDay = day
            dayCells = cells.removeValue(forKey: day) ?? []
        }
        if index >= dayCells.count {
            // A day's row ends with the last group met that day: the published figures share the
            // row, so the next event copies it, and two groups' cells are a quarter of eight's.
            let end = (index / VisitorSegment.count + 1) * VisitorSegment.count
            dayCells.append(contentsOf: repeatElement(VisitorSums(), count: end - dayCells.count))
        }
        change(&dayCells[index])
    }

    /// Every day's cells.
    private var allCells: [Int32: [VisitorSums]] {
        guard let cellDay else { return cells }
        var all = cells
        all[cellDay] = dayCells
        return all
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

    func sums(_ group: Int) -> VisitorSums { base.load(fromByteOffset: Self.sumsOffset(group), as: VisitorSums.self) }

    var visitors: ExperimentVisitors {
        ExperimentVisitors(name: name, groups: groupNames.indices.map { (groupNames[$0], sums($0)) },
                           uncountedGroups: uncountedGroups, cells: allCells)
    }

    /// Counts one event of a visitor in `group` (the group, day and segment of their first event win).
    /// The change of the visitor's own sums (`VisitorRecord`) is added to their group's and cell's.
    func add(visitor hash: UInt64, group: UInt8, kind: Kind, day: UInt16 = 0, segment: UInt8 = 0) {
        if used + 1 > capacity / 10 * 6 { grow() }
        // A table that could not grow (disk full) keeps counting the visitors it has, not new ones.
        let room = used + 1 < capacity
        let key = hash == 0 ? 1 : hash
        let slotsBase = base + Self.headerBytes
        var index = Int(truncatingIfNeeded: key >> 11) & (capacity - 1)
        var slot = slotsBase + index * Self.slotBytes
        var change: VisitorSums
        while true {
            let stored = slot.load(as: UInt64.self)
            if stored == key {
                var record = Self.record(slot)
                guard let counted = record.change(counting: kind) else { return }
                change = counted
                Self.store(record, slot)
                break
            }
            if stored == 0 {
                guard room else {
                    markIncomplete()
                    return
                }
                var record = VisitorRecord()
                record.count(kind)
                change = record.sums
                slot.initializeMemory(as: UInt8.self, repeating: 0, count: Self.slotBytes)
                slot.storeBytes(of: key, as: UInt64.self)
                slot.storeBytes(of: group, toByteOffset: 14, as: UInt8.self)
                slot.storeBytes(of: day, toByteOffset: 16, as: UInt16.self)
                slot.storeBytes(of: segment, toByteOffset: 18, as: UInt8.self)
                Self.store(record, slot)
                used += 1
                base.storeBytes(of: UInt64(used), toByteOffset: 16, as: UInt64.self)
                break
            }
            index = (index + 1) & (capacity - 1)
            slot = slotsBase + index * Self.slotBytes
        }
        let own = Int(slot.load(fromByteOffset: 14, as: UInt8.self))
        let sums = base + Self.sumsOffset(own)
        var total = sums.load(as: VisitorSums.self)
        total.add(change)
        sums.storeBytes(of: total, as: VisitorSums.self)
        cell(day: Int32(slot.load(fromByteOffset: 16, as: UInt16.self)),
             own * VisitorSegment.count + Int(slot.load(fromByteOffset: 18, as: UInt8.self)) % VisitorSegment.count) { $0.add(change) }
    }

    @inline(__always)
    private static func store(_ record: VisitorRecord, _ slot: UnsafeMutableRawPointer) {
        slot.storeBytes(of: record.views, toByteOffset: 8, as: UInt32.self)
        slot.storeBytes(of: record.selections, toByteOffset: 12, as: UInt16.self)
        slot.storeBytes(of: record.flags, toByteOffset: 15, as: UInt8.self)
        slot.storeBytes(of: record.plays, toByteOffset: 20, as: UInt32.self)
    }

    /// Where a group's fourteen sums lie in the header, in `VisitorSums`' own field order.
    @inline(__always)
    private static func sumsOffset(_ group: Int) -> Int { 64 + group * groupBytes + 72 }

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

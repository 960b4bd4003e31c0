import Basics

/// The viewing of many visitors in little memory, least recently used first out: a visitor is a
/// 64-bit hash of their id, their activity a few 32-bit words (`ViewingWords`) with titles as
/// numbers (`TitleNumbers`). Most visitors' activity fits the four words of their slot (32 bytes
/// with the hash and the recency links) beside one dictionary entry, some 57 bytes a visitor in
/// all; a longer one is kept beside the slot, and counted against `overflowBudget`.
/// A value: `ViewingHistory` keeps it behind its lock.
struct ViewingTable {
    /// Words that fit the slot; a header word of `overflowMark` says the words are in `overflow`.
    static let inlineWords = 4
    static let overflowMark = UInt32.max

    struct Slot {
        var key: UInt64
        /// Towards the more and the less recently used; -1 at the ends.
        var newer: Int32
        var older: Int32
        var words: (UInt32, UInt32, UInt32, UInt32)
    }

    let capacity: Int
    /// Bytes the activities too long for their slot may take in all.
    let overflowBudget: Int
    private var index: [MixedKey: Int32] = [:]
    private var slots: [Slot] = []
    private var free: [Int32] = []
    private var overflow: [Int32: [UInt32]] = [:]
    private(set) var overflowBytes = 0
    private var newest: Int32 = -1
    private var oldest: Int32 = -1
    var titles = TitleNumbers()

    init(capacity: Int, overflowBudget: Int) {
        self.capacity = max(1, capacity)
        self.overflowBudget = overflowBudget
    }

    var count: Int { index.count }

    /// The bytes an activity kept beside its slot costs: the array and its dictionary entry.
    static func overflowCost(_ words: Int) -> Int { 64 + 4 * words }

    /// The visitor's words, now the most recently used; nil when not held.
    mutating func words(for key: UInt64) -> [UInt32]? {
        guard let slot = index[MixedKey(key)] else { return nil }
        touch(slot)
        return read(slot)
    }

    func contains(_ key: UInt64) -> Bool { index[MixedKey(key)] != nil }

    /// The visitor's first word (`ViewingWords`' header, or `overflowMark`), now the most
    /// recently used; nil when not held. Reads no more than the slot.
    mutating func header(for key: UInt64) -> UInt32? {
        guard let slot = index[MixedKey(key)] else { return nil }
        touch(slot)
        return slots[Int(slot)].words.0
    }

    /// Keeps `words` for the visitor, the most recently used, and drops the least recently used
    /// beyond the capacity or the overflow budget.
    mutating func set(_ words: [UInt32], for key: UInt64) {
        let slot: Int32
        if let held = index[MixedKey(key)] {
            slot = held
            clearOverflow(slot)
            touch(slot)
        } else {
            if let reused = free.popLast() {
                slot = reused
                slots[Int(slot)] = Slot(key: key, newer: -1, older: -1, words: (0, 0, 0, 0))
            } else {
                slot = Int32(slots.count)
                slots.append(Slot(key: key, newer: -1, older: -1, words: (0, 0, 0, 0)))
            }
            index[MixedKey(key)] = slot
            linkNewest(slot)
        }
        write(words, into: slot)
        while index.count > capacity || overflowBytes > overflowBudget, oldest != slot { evictOldest() }
    }

    /// Every visitor's key and words, least recently used first.
    func forEachOldestFirst(_ body: (UInt64, [UInt32]) -> Void) {
        var at = oldest
        while at >= 0 {
            body(slots[Int(at)].key, read(at))
            at = slots[Int(at)].newer
        }
    }

    /// The keys, least recently used first (for tests).
    var keysOldestFirst: [UInt64] {
        var keys: [UInt64] = []
        forEachOldestFirst { key, _ in keys.append(key) }
        return keys
    }

    private func read(_ slot: Int32) -> [UInt32] {
        let held = slots[Int(slot)].words
        if held.0 == Self.overflowMark { return overflow[slot] ?? [] }
        let inline = [held.0, held.1, held.2, held.3]
        return Array(inline.prefix(ViewingWords.length(header: held.0)))
    }

    private mutating func write(_ words: [UInt32], into slot: Int32) {
        if words.count <= Self.inlineWords, words.first != Self.overflowMark {
            var padded = words + [UInt32](repeating: 0, count: Self.inlineWords - words.count)
            if words.isEmpty { padded[0] = 0 }
            slots[Int(slot)].words = (padded[0], padded[1], padded[2], padded[3])
        } else {
            slots[Int(slot)].words = (Self.overflowMark, 0, 0, 0)
            overflow[slot] = words
            overflowBytes += Self.overflowCost(words.count)
        }
    }

    private mutating func clearOverflow(_ slot: Int32) {
        if let words = overflow.removeValue(forKey: slot) { overflowBytes -= Self.overflowCost(words.count) }
    }

    private mutating func evictOldest() {
        let slot = oldest
        guard slot >= 0 else { return }
        unlink(slot)
        clearOverflow(slot)
        index[MixedKey(slots[Int(slot)].key)] = nil
        free.append(slot)
    }

    private mutating func touch(_ slot: Int32) {
        guard newest != slot else { return }
        unlink(slot)
        linkNewest(slot)
    }

    private mutating func linkNewest(_ slot: Int32) {
        slots[Int(slot)].older = newest
        slots[Int(slot)].newer = -1
        if newest >= 0 { slots[Int(newest)].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int32) {
        let (newer, older) = (slots[Int(slot)].newer, slots[Int(slot)].older)
        if newer >= 0 { slots[Int(newer)].older = older } else { newest = older }
        if older >= 0 { slots[Int(older)].newer = newer } else { oldest = newer }
        slots[Int(slot)].newer = -1
        slots[Int(slot)].older = -1
    }
}

/// Title ids as small numbers, each given once and kept: there are as many as titles ever
/// played or listed, far fewer than visitors.
struct TitleNumbers {
    private var numbers: [String: UInt32] = [:]
    private var ids: [String] = []

    mutating func number(_ id: String) -> UInt32 {
        if let number = numbers[id] { return number }
        let number = UInt32(ids.count)
        ids.append(id)
        numbers[id] = number
        return number
    }

    func id(_ number: UInt32) -> String? { Int(number) < ids.count ? ids[Int(number)] : nil }
}

/// Each counted visitor's titles of the co-viewing window with the day each was last started, in
/// flat arrays (`PlayCounts`' memory is this table): a million visitors of some 7 titles take
/// about 55 bytes each, where a dictionary entry and an array of their own took some 140.
///
/// A visitor is a row of 10 words: the 64-bit key (`ViewingHistory.key`), a header (the number
/// of titles, the first overflow chunk) and 7 entries, each `title << 16 | day` (the UTC day
/// since 1970). Titles beyond the seventh go to chunks of 3 entries and a link, at most
/// `chunkLimit` of them. An open-addressing index of 32-bit cells (the row plus a tag from the
/// key's top bits, so a probe rarely reads a row that is not the one) finds the row. Rows stay
/// dense: a visitor leaving gives its row to the last one.
///
/// Beyond `capacity` visitors, or when no chunk is left, the least recent visitor leaves: one
/// whose last start is on the oldest day (a count of visitors per such day says which day that
/// is; a hand going round the rows finds one), and their pairs with it, so the pairs are always
/// those of the visitors held.
struct PlayVisitors {
    static let rowWords = 10
    static let inlineEntries = 7
    static let chunkWords = 4
    static let chunkEntries = 3

    let capacity: Int
    let chunkLimit: Int
    private var rows: [UInt32] = []
    /// Chunk 0 is never used: a link of 0 is the end.
    private var chunks: [UInt32] = [0, 0, 0, 0]
    private var freeChunk: UInt32 = 0
    private(set) var chunksUsed = 0
    private var cells: [UInt32] = Array(repeating: 0, count: 64)
    private let rowBits: Int
    /// Visitors per day of their last start.
    private var lastDays: [Int32: Int] = [:]
    private var hand = 0
    private var scratch: [UInt32] = []

    init(capacity: Int, chunkLimit: Int) {
        self.capacity = min(max(1, capacity), 1 << 26)
        // A chunk's number takes the header's top 24 bits; 0 is the end of a chain.
        self.chunkLimit = min(max(1, chunkLimit), (1 << 24) - 1)
        rowBits = Int.bitWidth - self.capacity.leadingZeroBitCount
    }

    var count: Int { rows.count / Self.rowWords }

    static func entry(title: UInt32, day: UInt32) -> UInt32 { title << 16 | day }

    func contains(_ key: UInt64) -> Bool { find(key).row != nil }

    /// The visitor's titles (numbers), in the order first started (for tests).
    func titles(of key: UInt64) -> [UInt32] {
        guard let row = find(key).row else { return [] }
        var titles: [UInt32] = []
        forEachEntry(row) { titles.append($0 >> 16) }
        return titles
    }

    /// Counts a start of `title` (below 65,536) on `day` (1 to 65,535) by the visitor: a title new
    /// to them makes a pair with each they have; one they have takes the later day.
    mutating func add(_ key: UInt64, title: UInt32, day: UInt32, pairs: inout TitlePairs) {
        guard let row = find(key).row else {
            insert(key, Self.entry(title: title, day: day), pairs: &pairs)
            return
        }
        let held = Int(rows[row * Self.rowWords + 2] & 0xFF)
        var last: UInt32 = 0
        var place: (chunk: Int, at: Int)? = nil
        forEachPlace(row) { chunk, at, entry in
            last = max(last, entry & 0xFFFF)
            if entry >> 16 == title { place = (chunk, at) }
        }
        if let (chunk, at) = place {
            let entry = chunk == 0 ? rows[at] : chunks[at]
            guard day > entry & 0xFFFF else { return }
            if chunk == 0 { rows[at] = Self.entry(title: title, day: day) } else { chunks[at] = Self.entry(title: title, day: day) }
            moveLastDay(from: last, to: max(last, day))
            return
        }
        guard held < PlayStatistics.titlesPerVisitor else { return }
        let overflow = held - Self.inlineEntries
        let needsChunk = overflow >= 0 && overflow % Self.chunkEntries == 0
        if needsChunk {
            // Others leave for the chunk (the row may move meanwhile); when they cannot, the title is not counted.
            while chunksUsed >= chunkLimit, evictLeastRecent(sparing: key, pairs: &pairs) {}
            guard chunksUsed < chunkLimit else { return }
        }
        guard let row = find(key).row else { return }
        forEachEntry(row) { pairs.change(title, $0 >> 16, by: 1) }
        let new = Self.entry(title: title, day: day)
        let base = row * Self.rowWords
        if overflow < 0 {
            rows[base + 3 + held] = new
        } else if needsChunk {
            let chunk = takeChunk()
            chunks[Int(chunk) * Self.chunkWords + 1] = new
            if overflow == 0 { rows[base + 2] |= chunk << 8 } else { chunks[lastChunk(of: row) * Self.chunkWords] = chunk }
        } else {
            chunks[lastChunk(of: row) * Self.chunkWords + 1 + overflow % Self.chunkEntries] = new
        }
        rows[base + 2] += 1
        moveLastDay(from: last, to: max(last, day))
    }

    /// Drops every title last started before `day`, with its pairs, and the visitors left without one.
    mutating func sweep(before day: Int32, pairs: inout TitlePairs) {
        for row in stride(from: count - 1, through: 0, by: -1) {
            var old = false
            forEachEntry(row) { if Int32($0 & 0xFFFF) < day { old = true } }
            guard old else { continue }
            scratch.removeAll(keepingCapacity: true)
            forEachEntry(row) { scratch.append($0) }
            let kept = scratch.filter { Int32($0 & 0xFFFF) >= day }
            guard !kept.isEmpty else {
                remove(row, pairs: &pairs)
                continue
            }
            // Each pair with a title that leaves, once.
            var left = scratch
            for gone in scratch where Int32(gone & 0xFFFF) < day {
                left.removeAll { $0 == gone }
                for other in left { pairs.change(gone >> 16, other >> 16, by: -1) }
            }
            rewrite(row, kept)
        }
        if hand >= count { hand = 0 }
    }

    // MARK: rows

    private func key(ofRow row: Int) -> UInt64 {
        UInt64(rows[row * Self.rowWords]) | UInt64(rows[row * Self.rowWords + 1]) << 32
    }

    /// Each entry's place (chunk 0: `rows`, else `chunks`) and value, in order.
    private func forEachPlace(_ row: Int, _ body: (_ chunk: Int, _ at: Int, _ entry: UInt32) -> Void) {
        let base = row * Self.rowWords, header = rows[base + 2]
        let held = Int(header & 0xFF)
        for index in 0..<min(held, Self.inlineEntries) { body(0, base + 3 + index, rows[base + 3 + index]) }
        var left = held - Self.inlineEntries, chunk = Int(header >> 8)
        while left > 0 {
            let at = chunk * Self.chunkWords
            for index in 0..<min(left, Self.chunkEntries) { body(chunk, at + 1 + index, chunks[at + 1 + index]) }
            left -= Self.chunkEntries
            chunk = Int(chunks[at])
        }
    }

    private func forEachEntry(_ row: Int, _ body: (UInt32) -> Void) {
        forEachPlace(row) { _, _, entry in body(entry) }
    }

    private func lastDay(of row: Int) -> Int32 {
        var last: UInt32 = 0
        forEachEntry(row) { last = max(last, $0 & 0xFFFF) }
        return Int32(last)
    }

    private func lastChunk(of row: Int) -> Int {
        var chunk = Int(rows[row * Self.rowWords + 2] >> 8)
        while chunks[chunk * Self.chunkWords] != 0 { chunk = Int(chunks[chunk * Self.chunkWords]) }
        return chunk
    }

    private mutating func moveLastDay(from old: UInt32, to new: UInt32) {
        guard new != old else { return }
        countLastDay(Int32(old), by: -1)
        countLastDay(Int32(new), by: 1)
    }

    private mutating func countLastDay(_ day: Int32, by change: Int) {
        let count = lastDays[day, default: 0] + change
        lastDays[day] = count > 0 ? count : nil
    }

    private mutating func insert(_ key: UInt64, _ entry: UInt32, pairs: inout TitlePairs) {
        if count >= capacity { evictLeastRecent(sparing: nil, pairs: &pairs) }
        if (count + 1) * 2 > cells.count { grow() }
        let row = count
        rows.append(UInt32(truncatingIfNeeded: key))
        rows.append(UInt32(truncatingIfNeeded: key >> 32))
        rows.append(1)
        rows.append(entry)
        for _ in 1..<Self.inlineEntries { rows.append(0) }
        cells[find(key).cell] = cell(key, row)
        countLastDay(Int32(entry & 0xFFFF), by: 1)
    }

    /// Rewrites the row's entries (fewer than it had) from `entries`, its chunks given back first.
    private mutating func rewrite(_ row: Int, _ entries: [UInt32]) {
        let base = row * Self.rowWords
        freeChunks(of: row)
        for (index, entry) in entries.prefix(Self.inlineEntries).enumerated() { rows[base + 3 + index] = entry }
        var header = UInt32(entries.count), previous = 0
        for (index, entry) in entries.dropFirst(Self.inlineEntries).enumerated() {
            if index % Self.chunkEntries == 0 {
                let chunk = takeChunk()
                if previous == 0 { header |= chunk << 8 } else { chunks[previous * Self.chunkWords] = chunk }
                previous = Int(chunk)
            }
            chunks[previous * Self.chunkWords + 1 + index % Self.chunkEntries] = entry
        }
        rows[base + 2] = header
    }

    /// The visitor of `row` leaves with their pairs; the last row takes its place.
    private mutating func remove(_ row: Int, pairs: inout TitlePairs) {
        scratch.removeAll(keepingCapacity: true)
        forEachEntry(row) { scratch.append($0 >> 16) }
        for (index, title) in scratch.enumerated() {
            for other in scratch[(index + 1)...] { pairs.change(title, other, by: -1) }
        }
        countLastDay(lastDay(of: row), by: -1)
        freeChunks(of: row)
        deleteCell(find(key(ofRow: row)).cell)
        let moved = count - 1
        if row != moved {
            let key = self.key(ofRow: moved)
            for word in 0..<Self.rowWords { rows[row * Self.rowWords + word] = rows[moved * Self.rowWords + word] }
            cells[find(key).cell] = cell(key, row)
        }
        rows.removeLast(Self.rowWords)
    }

    /// The least recent visitor but `sparing` leaves; false when there is none.
    @discardableResult
    private mutating func evictLeastRecent(sparing: UInt64?, pairs: inout TitlePairs) -> Bool {
        for day in lastDays.keys.sorted() {
            for _ in 0..<count {
                if hand >= count { hand = 0 }
                if lastDay(of: hand) == day, key(ofRow: hand) != sparing {
                    remove(hand, pairs: &pairs)
                    return true
                }
                hand += 1
            }
        }
        return false
    }

    private mutating func takeChunk() -> UInt32 {
        chunksUsed += 1
        if freeChunk != 0 {
            let chunk = freeChunk
            freeChunk = chunks[Int(chunk) * Self.chunkWords]
            chunks[Int(chunk) * Self.chunkWords] = 0
            return chunk
        }
        chunks.append(contentsOf: [0, 0, 0, 0])
        return UInt32(chunks.count / Self.chunkWords - 1)
    }

    private mutating func freeChunks(of row: Int) {
        var chunk = rows[row * Self.rowWords + 2] >> 8
        while chunk != 0 {
            let next = chunks[Int(chunk) * Self.chunkWords]
            chunks[Int(chunk) * Self.chunkWords] = freeChunk
            freeChunk = chunk
            chunksUsed -= 1
            chunk = next
        }
        rows[row * Self.rowWords + 2] &= 0xFF
    }

    // MARK: index

    private var rowMask: UInt32 { UInt32(truncatingIfNeeded: (1 << rowBits) - 1) }

    private func tag(_ key: UInt64) -> UInt32 {
        rowBits >= 32 ? 0 : UInt32(truncatingIfNeeded: key >> UInt64(32 + rowBits)) << UInt32(rowBits)
    }

    private func cell(_ key: UInt64, _ row: Int) -> UInt32 { tag(key) | UInt32(row + 1) }

    /// The key's cell, or the empty cell where it would go.
    private func find(_ key: UInt64) -> (cell: Int, row: Int?) {
        let mask = cells.count - 1, tag = tag(key)
        var at = Int(truncatingIfNeeded: key) & mask
        while true {
            let cell = cells[at]
            if cell == 0 { return (at, nil) }
            if cell & ~rowMask == tag {
                let row = Int(cell & rowMask) - 1
                if self.key(ofRow: row) == key { return (at, row) }
            }
            at = (at + 1) & mask
        }
    }

    /// Empties a cell, moving back those after it that would no longer be found.
    private mutating func deleteCell(_ cell: Int) {
        let mask = cells.count - 1
        var hole = cell, next = (cell + 1) & mask
        while cells[next] != 0 {
            let home = Int(truncatingIfNeeded: key(ofRow: Int(cells[next] & rowMask) - 1)) & mask
            if (next - home) & mask >= (next - hole) & mask {
                cells[hole] = cells[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        cells[hole] = 0
    }

    private mutating func grow() {
        cells = Array(repeating: 0, count: cells.count * 2)
        for row in 0..<count { cells[find(key(ofRow: row)).cell] = cell(key(ofRow: row), row) }
    }
}

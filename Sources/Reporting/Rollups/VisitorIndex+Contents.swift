extension VisitorIndex {
    /// An index file's bytes, read in place: from memory, or a window at a time from the file.
    struct Contents<Bytes: IndexBytes> {
        let raw: Bytes
        /// The fence of this very file, when known: its shape is taken from it, not read.
        let fence: VisitorFence?

        init(_ raw: Bytes, fence: VisitorFence? = nil) {
            self.raw = raw
            self.fence = fence
        }

        var width: Int { fence?.width ?? Int(raw.load(magic.count, as: UInt8.self)) }
        var memberCount: Int { fence?.memberCount ?? Int(u32(8)) }
        var rowCount: Int { fence?.rowCount ?? Int(u32(12)) }
        var listCount: Int { fence?.listCount ?? Int(u32(row(rowCount) + 12)) }

        func u32(_ offset: Int) -> UInt32 { raw.load(offset, as: UInt32.self) }
        func u64(_ offset: Int) -> UInt64 { raw.load(offset, as: UInt64.self) }
        func row(_ number: Int) -> Int { headerBytes + number * rowBytes }
        func key(_ number: Int) -> UInt64 { u64(row(number)) }
        func member(atSlot slot: Int, from listStart: Int) -> Int {
            width == 2 ? Int(raw.load(listStart + slot * 2, as: UInt16.self)) : Int(u32(listStart + slot * 4))
        }

        /// What does not fit a segment of `members` members and `bytes` bytes (nil: it fits); the
        /// sizes are checked so that no lookup reads outside the file.
        func problem(members: Int, bytes: Int64) -> String? {
            if let fence {
                return fence.memberCount == members && fence.bytes == bytes
                    ? nil : "made for another segment (\(fence.memberCount) members, \(fence.bytes) bytes)"
            }
            guard raw.count >= headerBytes + rowBytes + 4, magic.indices.allSatisfy({ raw.load($0, as: UInt8.self) == magic[$0] }) else {
                return "not a visitor index"
            }
            guard width == 2 || width == 4 else { return "member width \(width)" }
            guard memberCount == members, Int64(bitPattern: u64(16)) == bytes else {
                return "made for another segment (\(memberCount) members, \(Int64(bitPattern: u64(16))) bytes)"
            }
            let rows = rowCount
            guard raw.count >= headerBytes + (rows + 1) * rowBytes + 4 else { return "cut short" }
            guard raw.count == headerBytes + (rows + 1) * rowBytes + listCount * width + 4 else {
                return "\(raw.count) bytes where its rows say \(headerBytes + (rows + 1) * rowBytes + listCount * width + 4)"
            }
            return nil
        }

        /// Where a binary search for the first row keyed `key` or after starts: the whole file, or
        /// the block of rows its fence leads to, read at once.
        func bounds(_ key: UInt64) -> (low: Int, high: Int) {
            guard let fence else { return (0, rowCount) }
            let rows = fence.rows(around: key)
            raw.prefetch(row(rows.lowerBound))
            return (rows.lowerBound, rows.upperBound)
        }

        /// The rows whose key is in `keys`: each one's key, hash and first member.
        func rows(keys: ClosedRange<UInt64>) -> [(key: UInt64, hash: UInt32, member: Int)] {
            var (low, high) = bounds(keys.lowerBound)
            while low < high {
                let mid = (low + high) / 2
                if key(mid) < keys.lowerBound { low = mid + 1 } else { high = mid }
            }
            // The rows first, then their members: each run read in one go.
            var matched: [(key: UInt64, hash: UInt32, slot: Int)] = []
            var number = low
            while number < rowCount, keys.contains(key(number)) {
                let at = row(number)
                let slot = Int(u32(at + 12))
                if slot < min(Int(u32(at + rowBytes + 12)), listCount) { matched.append((key(number), u32(at + 8), slot)) }
                number += 1
            }
            let listStart = row(rowCount + 1)
            return matched.compactMap { row in
                let member = member(atSlot: row.slot, from: listStart)
                return member < memberCount ? (row.key, row.hash, member) : nil
            }
        }

        /// The members of the rows whose key is in `keys` (and hash `hash`, when given), ascending, merged.
        func members(keys: ClosedRange<UInt64>, hash: UInt32?) -> [Int] {
            var (low, high) = bounds(keys.lowerBound)
            while low < high {
                let mid = (low + high) / 2
                let at = row(mid)
                if (u64(at), u32(at + 8)) < (keys.lowerBound, hash ?? 0) { low = mid + 1 } else { high = mid }
            }
            // The rows first, then their members: each run read in one go.
            let total = listCount
            var slots: [Range<Int>] = []
            var number = low
            while number < rowCount, keys.contains(key(number)) {
                let at = row(number)
                if let hash, u32(at + 8) != hash { break }
                let first = Int(u32(at + 12))
                let end = min(Int(u32(at + rowBytes + 12)), total)
                if first < end { slots.append(first..<end) }
                number += 1
            }
            let listStart = row(rowCount + 1)
            var found: [Int] = []
            for slot in slots.joined() {
                let member = member(atSlot: slot, from: listStart)
                if member < memberCount { found.append(member) }
            }
            if number > low + 1 || hash == nil {
                found.sort()
                var unique: [Int] = []
                for member in found where unique.last != member { unique.append(member) }
                return unique
            }
            return found
        }
    }
}

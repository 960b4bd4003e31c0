#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which gzip members of a compressed segment hold each visitor's events, exactly: kept beside the
/// segment (`events-….vix`). A filter per member can only rule members out, and with many visitors a
/// member each a query over many days admitted hundreds of members that held nothing of theirs; the
/// index leads straight to the members that do, so a visitor costs the members of their own events.
///
/// A visitor is keyed by the first 8 bytes of its value as the lines spell it (JSON-escaped, zero
/// padded) and a 32-bit hash of the whole value, sorted by both: a whole id is one binary search,
/// and an id's start (the 8 characters the report pages show) is a range of keys. Layout, little
/// endian: `DHVIX1\n`, the member number width (2 or 4), the segment's member count (u32), its
/// visitor count (u32) and uncompressed bytes (u64); then a row per visitor and one after the last,
/// each the key (u64, the 8 bytes big endian), the hash (u32) and where its members start in the
/// member list (u32); then the member list, each visitor's ascending; a CRC-32 of all before it.
/// Written atomically: a whole file of the right size is one written, and the CRC (checked when a
/// directory is opened) tells one damaged since; a lookup checks the sizes, never reading outside.
struct VisitorIndex {
    static let magic = Array("DHVIX1\n".utf8)
    static let headerBytes = 24
    static let rowBytes = 16

    /// One line's visitor: its key, hash and member.
    private var entries: [(key: UInt64, hash: UInt32, member: UInt32)] = []

    /// The key and hash of a visitor value's bytes as they appear between the quotes of a line.
    @inline(__always)
    static func keyAndHash(_ escaped: UnsafeRawBufferPointer) -> (UInt64, UInt32) {
        var key: UInt64 = 0
        for index in 0..<8 { key = key << 8 | UInt64(index < escaped.count ? escaped[index] : 0) }
        return (key, UInt32(truncatingIfNeeded: MemberFilter.hash(escaped) >> 32))
    }

    /// The keys an id starting with `escaped` may have: its first 8 bytes, the rest anything.
    static func keyRange(prefix escaped: [UInt8]) -> ClosedRange<UInt64> {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for index in 0..<8 {
            let byte = index < escaped.count ? escaped[index] : nil
            low = low << 8 | UInt64(byte ?? 0)
            high = high << 8 | UInt64(byte ?? 0xFF)
        }
        return low...high
    }

    /// Adds the visitors of the whole canonical lines in the first `count` bytes of `bytes`, all in `member`.
    mutating func add(member: Int, lines bytes: UnsafeRawBufferPointer, count: Int) {
        guard let base = bytes.baseAddress else { return }
        var lineStart = 0
        var last: (UInt64, UInt32)?
        while lineStart < count {
            let lineEnd = memchr(base + lineStart, 10, count - lineStart).map { base.distance(to: UnsafeRawPointer($0)) } ?? count
            if let value = MemberFilter.visitorValue(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd])) {
                let (key, hash) = Self.keyAndHash(value)
                // A visitor's events come in runs: one row for the run.
                if last.map({ $0 != (key, hash) }) ?? true {
                    entries.append((key, hash, UInt32(member)))
                    last = (key, hash)
                }
            }
            lineStart = lineEnd + 1
        }
    }

    /// The file for a segment of `members` gzip members and `bytes` uncompressed bytes.
    func encode(members: Int, bytes: Int64) -> [UInt8] {
        let sorted = entries.sorted { ($0.key, $0.hash, $0.member) < ($1.key, $1.hash, $1.member) }
        var rows: [(key: UInt64, hash: UInt32, start: UInt32)] = []
        var list: [UInt32] = []
        for entry in sorted {
            if let row = rows.last, row.key == entry.key, row.hash == entry.hash {
                if list.last != entry.member { list.append(entry.member) }
                continue
            }
            rows.append((entry.key, entry.hash, UInt32(list.count)))
            list.append(entry.member)
        }
        let width = members <= Int(UInt16.max) + 1 ? 2 : 4
        var out = Self.magic
        out.reserveCapacity(Self.headerBytes + (rows.count + 1) * Self.rowBytes + list.count * width + 4)
        out.append(UInt8(width))
        RollupFile.put32(&out, UInt32(members))
        RollupFile.put32(&out, UInt32(rows.count))
        RollupFile.put64(&out, UInt64(bytes))
        for row in rows + [(UInt64.max, UInt32.max, UInt32(list.count))] {
            RollupFile.put64(&out, row.key)
            RollupFile.put32(&out, row.hash)
            RollupFile.put32(&out, row.start)
        }
        for member in list {
            if width == 2 {
                withUnsafeBytes(of: UInt16(member).littleEndian) { out.append(contentsOf: $0) }
            } else {
                RollupFile.put32(&out, member)
            }
        }
        RollupFile.put32(&out, RollupFile.checksum(out[...]))
        return out
    }

    /// Why the file at `path` is not the index of a segment of `members` members and `bytes`
    /// bytes: "missing", or what is wrong with it; nil when it is whole, checksum included.
    static func problem(_ path: String, members: Int, bytes: Int64) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "missing" }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "cannot be read" }
        let size = Int(info.st_size)
        guard size >= headerBytes + rowBytes + 4 else { return "cut short: \(size) bytes" }
        var contents = [UInt8](repeating: 0, count: size)
        guard (try? contents.withUnsafeMutableBytes({ try readFully(fd, $0, at: 0) })) == size else { return "cannot be read" }
        return contents.withUnsafeBytes { raw -> String? in
            if let wrong = Contents(raw).problem(members: members, bytes: bytes) { return wrong }
            let stored = raw.loadUnaligned(fromByteOffset: size - 4, as: UInt32.self).littleEndian
            return stored == RollupFile.checksum(contents[..<(size - 4)]) ? nil : "checksum does not match"
        }
    }

    /// Calls `body` with the file to read from; nil when it cannot be read.
    static func withContents<T>(_ path: String, _ body: (Contents<FileWindow>) -> T?) -> T? {
        guard let file = FileWindow(path: path), file.count >= headerBytes + rowBytes + 4 else { return nil }
        let result = body(Contents(file))
        return file.failed ? nil : result
    }

    /// The members holding an id equal to `escaped` (`prefix` false) or starting with it, ascending;
    /// nil when the file is missing or not this segment's (then every member must be read).
    static func members(_ path: String, escaped: [UInt8], prefix: Bool, members: Int, bytes: Int64) -> [Int]? {
        withContents(path) { index -> [Int]? in
            guard index.problem(members: members, bytes: bytes) == nil else { return nil }
            if prefix { return index.members(keys: keyRange(prefix: escaped), hash: nil) }
            let (key, hash) = escaped.withUnsafeBytes { keyAndHash($0) }
            return index.members(keys: key...key, hash: hash)
        }
    }

    /// The ids whose first bytes are `escaped` (8 or more of them), one row each: its key, hash and
    /// its first member; nil when the file is missing or not this segment's.
    static func ids(_ path: String, startingWith escaped: [UInt8], members: Int, bytes: Int64) -> [(key: UInt64, hash: UInt32, member: Int)]? {
        withContents(path) { index -> [(key: UInt64, hash: UInt32, member: Int)]? in
            guard index.problem(members: members, bytes: bytes) == nil else { return nil }
            return index.rows(keys: keyRange(prefix: escaped))
        }
    }

    /// An index file's bytes, read in place: from memory, or a window at a time from the file.
    struct Contents<Bytes: IndexBytes> {
        let raw: Bytes

        init(_ raw: Bytes) { self.raw = raw }

        var width: Int { Int(raw.load(magic.count, as: UInt8.self)) }
        var memberCount: Int { Int(u32(8)) }
        var rowCount: Int { Int(u32(12)) }
        var listCount: Int { Int(u32(row(rowCount) + 12)) }

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

        /// The rows whose key is in `keys`: each one's key, hash and first member.
        func rows(keys: ClosedRange<UInt64>) -> [(key: UInt64, hash: UInt32, member: Int)] {
            var low = 0
            var high = rowCount
            while low < high {
                let mid = (low + high) / 2
                if key(mid) < keys.lowerBound { low = mid + 1 } else { high = mid }
            }
            let listStart = row(rowCount + 1)
            var found: [(key: UInt64, hash: UInt32, member: Int)] = []
            var number = low
            while number < rowCount, keys.contains(key(number)) {
                let at = row(number)
                let slot = Int(u32(at + 12))
                if slot < min(Int(u32(at + rowBytes + 12)), listCount) {
                    let member = member(atSlot: slot, from: listStart)
                    if member < memberCount { found.append((key(number), u32(at + 8), member)) }
                }
                number += 1
            }
            return found
        }

        /// The members of the rows whose key is in `keys` (and hash `hash`, when given), ascending, merged.
        func members(keys: ClosedRange<UInt64>, hash: UInt32?) -> [Int] {
            var low = 0
            var high = rowCount
            while low < high {
                let mid = (low + high) / 2
                let at = row(mid)
                if (u64(at), u32(at + 8)) < (keys.lowerBound, hash ?? 0) { low = mid + 1 } else { high = mid }
            }
            let listStart = row(rowCount + 1)
            let total = listCount
            var found: [Int] = []
            var number = low
            while number < rowCount, keys.contains(key(number)) {
                let at = row(number)
                if let hash, u32(at + 8) != hash { break }
                let first = Int(u32(at + 12))
                let end = min(Int(u32(at + rowBytes + 12)), total)
                if first < end {
                    for slot in first..<end {
                        let member = member(atSlot: slot, from: listStart)
                        if member < memberCount { found.append(member) }
                    }
                }
                number += 1
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

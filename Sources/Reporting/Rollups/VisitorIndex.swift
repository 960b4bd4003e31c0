import Basics

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
        check(path, members: members, bytes: bytes).problem
    }

    /// What reading a segment's index whole found.
    enum Check {
        case whole(VisitorFence)
        case missing
        case damaged(String)

        var problem: String? {
            switch self {
            case .whole: nil
            case .missing: "missing"
            case .damaged(let problem): problem
            }
        }
    }

    /// The file at `path` read whole and checked as `problem` says; its fence when it is whole.
    static func check(_ path: String, members: Int, bytes: Int64) -> Check {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .missing }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .damaged("cannot be read") }
        let size = Int(info.st_size)
        guard size >= headerBytes + rowBytes + 4 else { return .damaged("cut short: \(size) bytes") }
        var contents = [UInt8](repeating: 0, count: size)
        guard (try? contents.withUnsafeMutableBytes({ try readFully(fd, $0, at: 0) })) == size else { return .damaged("cannot be read") }
        return contents.withUnsafeBytes { raw in
            let index = Contents(raw)
            if let wrong = index.problem(members: members, bytes: bytes) { return .damaged(wrong) }
            let stored = raw.loadUnaligned(fromByteOffset: size - 4, as: UInt32.self).littleEndian
            guard stored == RollupFile.checksum(contents[..<(size - 4)]) else { return .damaged("checksum does not match") }
            return .whole(VisitorFence(index, file: FileStamp(info)))
        }
    }

    /// The fence of the index just written to `path` as `bytes`; nil if the file is not those bytes.
    static func fence(_ path: String, written bytes: [UInt8]) -> VisitorFence? {
        var info = stat()
        guard stat(path, &info) == 0, Int(info.st_size) == bytes.count else { return nil }
        return bytes.withUnsafeBytes { raw -> VisitorFence? in
            let index = Contents(raw)
            guard raw.count >= headerBytes + rowBytes + 4,
                  index.problem(members: index.memberCount, bytes: Int64(bitPattern: index.u64(16))) == nil else { return nil }
            return VisitorFence(index, file: FileStamp(info))
        }
    }

    /// Calls `body` with the file to read from; nil when it cannot be read. With `fence`, of this
    /// version of the file, its shape is not read again and a lookup reads one block of rows.
    static func withContents<T>(_ path: String, fence: VisitorFence?, _ body: (Contents<FileWindow>) -> T?) -> T? {
        guard let file = FileWindow(path: path, window: fence == nil ? FileWindow.size : VisitorFence.window),
              file.count >= headerBytes + rowBytes + 4 else { return nil }
        let result = body(Contents(file, fence: fence.flatMap { $0.file == file.stamp ? $0 : nil }))
        return file.failed ? nil : result
    }

    /// The members holding an id equal to `escaped` (`prefix` false) or starting with it, ascending;
    /// nil when the file is missing or not this segment's (then every member must be read).
    static func members(_ path: String, escaped: [UInt8], prefix: Bool, members: Int, bytes: Int64,
                        fence: VisitorFence? = nil) -> [Int]? {
        withContents(path, fence: fence) { index -> [Int]? in
            guard index.problem(members: members, bytes: bytes) == nil else { return nil }
            if prefix { return index.members(keys: keyRange(prefix: escaped), hash: nil) }
            let (key, hash) = escaped.withUnsafeBytes { keyAndHash($0) }
            return index.members(keys: key...key, hash: hash)
        }
    }

    /// The ids whose first bytes are `escaped` (8 or more of them), one row each: its key, hash and
    /// its first member; nil when the file is missing or not this segment's.
    static func ids(_ path: String, startingWith escaped: [UInt8], members: Int, bytes: Int64,
                    fence: VisitorFence? = nil) -> [(key: UInt64, hash: UInt32, member: Int)]? {
        withContents(path, fence: fence) { index -> [(key: UInt64, hash: UInt32, member: Int)]? in
            guard index.problem(members: members, bytes: bytes) == nil else { return nil }
            return index.rows(keys: keyRange(prefix: escaped))
        }
    }
}

import Basics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which gzip members of a compressed segment may hold a visitor's events: a Bloom filter per
/// member (1,024 bits, 3 probes: about 0.3% false positives at the fifty-odd visitors of a
/// 16 KiB member), stored bit-sliced beside the segment (`events-….members`): row `b` holds bit `b` of
/// every member's filter. A lookup reads three rows, not every filter, so it costs a few hundred
/// bytes a segment however long the log. Missing or not matching the index means "read them all".
///
/// The keys are the visitor values as the canonical lines spell them (JSON-escaped): a query
/// hashes its value escaped the same way, so building the filter never decodes a line.
struct MemberFilter {
    static let bits = 1024
    static let magic = Array("DHMEM1\n".utf8)
    static let key = Array(#""visitor":""#.utf8)

    let members: Int
    private var rows: [UInt64]
    private var wordsPerRow: Int { (members + 63) / 64 }

    init(members: Int) {
        self.members = members
        rows = [UInt64](repeating: 0, count: Self.bits * ((members + 63) / 64))
    }

    @inline(__always)
    static func probes(_ hash: UInt64) -> (Int, Int, Int) {
        let step = (hash >> 32) | 1
        let mask = UInt64(bits - 1)
        return (Int(hash & mask), Int((hash &+ step) & mask), Int((hash &+ 2 &* step) & mask))
    }

    /// The hash of a visitor value's bytes as they appear between the quotes of a line.
    static func hash(_ escaped: UnsafeRawBufferPointer) -> UInt64 {
        var hash = StableHash.fnv1a(escaped)
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }

    mutating func add(member: Int, hash: UInt64) {
        let (a, b, c) = Self.probes(hash)
        let words = wordsPerRow
        let word = member >> 6
        let bit: UInt64 = 1 << UInt64(member & 63)
        rows[a * words + word] |= bit
        rows[b * words + word] |= bit
        rows[c * words + word] |= bit
    }

    /// The visitor hashes of the lines in the first `count` bytes of `bytes` (whole canonical lines).
    static func visitorHashes(in bytes: [UInt8], count: Int) -> [UInt64] {
        var hashes: [UInt64] = []
        bytes.withUnsafeBytes { all in
            guard let base = all.baseAddress else { return }
            var lineStart = 0
            while lineStart < count {
                let lineEnd = memchr(base + lineStart, 10, count - lineStart).map { base.distance(to: UnsafeRawPointer($0)) } ?? count
                if let value = visitorValue(UnsafeRawBufferPointer(rebasing: all[lineStart..<lineEnd])) { hashes.append(hash(value)) }
                lineStart = lineEnd + 1
            }
        }
        return hashes
    }

    /// The escaped bytes of a canonical line's `visitor` value, if it has one. In the writer's
    /// field order `visitor` comes before `properties`, and inside the earlier string values every
    /// quote is escaped, so the first `"visitor":"` is the field itself.
    static func visitorValue(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let base = line.baseAddress, line.count > key.count else { return nil }
        var offset = 0
        let last = line.count - key.count
        while offset <= last, let found = memchr(base + offset, Int32(UInt8(ascii: "\"")), last - offset + 1) {
            let at = base.distance(to: UnsafeRawPointer(found))
            if key.withUnsafeBytes({ memcmp(base + at, $0.baseAddress!, key.count) }) == 0 {
                let start = at + key.count
                var end = start
                while end < line.count, line[end] != UInt8(ascii: "\"") { end += line[end] == UInt8(ascii: "\\") ? 2 : 1 }
                guard end < line.count else { return nil }
                return UnsafeRawBufferPointer(rebasing: line[start..<end])
            }
            offset = at + 1
        }
        return nil
    }

    func encode() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(out.count + 4 + rows.count * 8)
        RollupFile.put32(&out, UInt32(members))
        for word in rows { RollupFile.put64(&out, word) }
        return out
    }

    /// The members of the filter at `path` that may hold the visitor whose escaped value hashes to
    /// `hash`, ascending; nil if the file is missing, torn or not for `members` members. Written
    /// atomically, so a whole file of the right size is the one written.
    static func candidates(_ path: String, hash: UInt64, members: Int) -> [Int]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let words = (members + 63) / 64
        let header = magic.count + 4
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) == header + bits * words * 8 else { return nil }
        var head = [UInt8](repeating: 0, count: header)
        guard (try? head.withUnsafeMutableBytes({ try readFully(fd, $0, at: 0) })) == header, head.starts(with: magic) else { return nil }
        var reader = RollupFile.Reader(bytes: head[...])
        reader.index = magic.count
        guard reader.u32() == UInt32(members) else { return nil }
        var mask = [UInt64](repeating: ~0, count: words)
        var row = [UInt64](repeating: 0, count: words)
        let (a, b, c) = probes(hash)
        for probe in [a, b, c] {
            let at = Int64(header + probe * words * 8)
            guard (try? row.withUnsafeMutableBytes({ try readFully(fd, $0, at: at) })) == words * 8 else { return nil }
            for index in 0..<words { mask[index] &= UInt64(littleEndian: row[index]) }
        }
        var found: [Int] = []
        for (index, word) in mask.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let member = index * 64 + bits.trailingZeroBitCount
                if member < members { found.append(member) }
                bits &= bits - 1
            }
        }
        return found
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Bloom filter of a closed segment's visitors (2^19 bits, 3 probes: about 1.5% false positives at
/// 50,000 visitors), kept beside it (`events-….visitors`), so a visitor's events are looked for
/// only in the segments that may hold them. Missing or torn means "may hold anyone".
struct VisitorFilter: Sendable {
    static let bits = 1 << 19
    static let magic = Array("DHVIS1\n".utf8)
    private(set) var words: [UInt64]

    init() { words = [UInt64](repeating: 0, count: Self.bits / 64) }

    @inline(__always)
    private static func probes(_ hash: UInt64) -> (Int, Int, Int) {
        let step = (hash >> 32) | 1
        let mask = UInt64(bits - 1)
        return (Int(hash & mask), Int((hash &+ step) & mask), Int((hash &+ 2 &* step) & mask))
    }

    @inline(__always)
    mutating func add(hash: UInt64) {
        let (a, b, c) = Self.probes(hash)
        words.withUnsafeMutableBufferPointer { words in
            words[a >> 6] |= 1 << UInt64(a & 63)
            words[b >> 6] |= 1 << UInt64(b & 63)
            words[c >> 6] |= 1 << UInt64(c & 63)
        }
    }

    func mayContain(hash: UInt64) -> Bool {
        let (a, b, c) = Self.probes(hash)
        return words[a >> 6] & (1 << UInt64(a & 63)) != 0 && words[b >> 6] & (1 << UInt64(b & 63)) != 0
            && words[c >> 6] & (1 << UInt64(c & 63)) != 0
    }

    /// Whether the filter at `path` may hold `hash`, reading the three words it needs rather than
    /// the file; nil if missing or not whole. Written atomically, so a file of the right size with
    /// the magic is the one written (`reports check` verifies its checksum).
    static func mayContain(path: String, hash: UInt64) -> Bool? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) == magic.count + bits / 8 + 4 else { return nil }
        var head = [UInt8](repeating: 0, count: magic.count)
        guard (try? head.withUnsafeMutableBytes({ try readFully(fd, $0, at: 0) })) == magic.count, head == magic else { return nil }
        let (a, b, c) = probes(hash)
        for bit in [a, b, c] {
            var word: UInt64 = 0
            let got = try? withUnsafeMutableBytes(of: &word) { try readFully(fd, $0, at: Int64(magic.count + (bit >> 6) * 8)) }
            guard got == 8 else { return nil }
            if UInt64(littleEndian: word) & (1 << UInt64(bit & 63)) == 0 { return false }
        }
        return true
    }

    /// True when every visitor `other` holds is held here too.
    func covers(_ other: VisitorFilter) -> Bool {
        zip(words, other.words).allSatisfy { mine, theirs in theirs & ~mine == 0 }
    }

    func encode() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(out.count + words.count * 8 + 4)
        for word in words { RollupFile.put64(&out, word) }
        RollupFile.put32(&out, RollupFile.checksum(out[...]))
        return out
    }

    /// The filter in `path`; nil if missing, torn or not one.
    static func load(_ path: String) -> VisitorFilter? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = magic.count + bits / 8 + 4
        var bytes = [UInt8](repeating: 0, count: size)
        guard (try? bytes.withUnsafeMutableBytes({ try readFully(fd, $0, at: 0) })) == size, bytes.starts(with: magic) else { return nil }
        var tail = RollupFile.Reader(bytes: bytes[...])
        tail.index = size - 4
        guard tail.u32() == RollupFile.checksum(bytes[..<(size - 4)]) else { return nil }
        var filter = VisitorFilter()
        bytes.withUnsafeBytes { raw in
            for index in 0..<filter.words.count {
                filter.words[index] = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: magic.count + index * 8, as: UInt64.self))
            }
        }
        return filter
    }
}

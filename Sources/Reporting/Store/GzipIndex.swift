import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where each gzip member of a compressed segment starts, uncompressed and compressed; the last
/// entry is the end of both. Kept beside the segment (`events-….gzi`).
struct GzipIndex: Sendable {
    var members = GzipMembers()

    static let magic = Array("DHGZI1\n".utf8)

    func encode() -> [UInt8] {
        var out = Self.magic
        RollupFile.put32(&out, UInt32(members.count))
        for member in members {
            RollupFile.put64(&out, UInt64(member.uncompressed))
            RollupFile.put64(&out, UInt64(member.compressed))
        }
        RollupFile.put32(&out, RollupFile.checksum(out[...]))
        return out
    }

    /// Reads an index back; nil if missing, torn or inconsistent.
    static func load(_ path: String) -> GzipIndex? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > magic.count + 8, info.st_size < 1 << 30 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let got = (try? bytes.withUnsafeMutableBytes { try readFully(fd, $0, at: 0) }) ?? 0
        guard got == bytes.count, bytes.starts(with: magic) else { return nil }
        var tail = RollupFile.Reader(bytes: bytes[..<got])
        tail.index = got - 4
        guard let stored = tail.u32(), stored == RollupFile.checksum(bytes[..<(got - 4)]) else { return nil }
        // Read in place, not byte by byte: a visitor's query loads the index of every segment it reads.
        return bytes.withUnsafeBytes { raw -> GzipIndex? in
            let count = Int(raw.loadUnaligned(fromByteOffset: magic.count, as: UInt32.self).littleEndian)
            guard count >= 1, magic.count + 4 + count * 16 == got - 4 else { return nil }
            var index = GzipIndex()
            index.members.reserveCapacity(count)
            for number in 0..<count {
                let at = magic.count + 4 + number * 16
                let u = Int64(bitPattern: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian)
                let c = Int64(bitPattern: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self).littleEndian)
                guard index.members.append((u, c)) else { return nil }
            }
            return index
        }
    }

    /// The member holding uncompressed `offset` (the last member for the end).
    func member(containing offset: Int64) -> Int {
        var low = 0
        var high = members.count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if members[mid].uncompressed <= offset { low = mid } else { high = mid - 1 }
        }
        return max(0, low)
    }

    /// A reader positioned at member `number` of the gzip at `path`.
    func reader(at number: Int, of path: String) throws -> GzipReader {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ScanError(code: errno).at(path) }
        guard lseek(fd, off_t(members[number].compressed), SEEK_SET) >= 0 else {
            close(fd)
            throw ScanError(code: EIO).at(path)
        }
        guard let reader = GzipReader(fd: fd) else { throw ScanError(code: ENOMEM).at(path) }
        return reader
    }

    /// The first `count` bytes of member `number` (fewer if it is shorter).
    func prefix(_ count: Int, ofMember number: Int, of path: String) throws -> [UInt8] {
        let reader = try reader(at: number, of: path)
        let length = min(count, Int(members[number + 1].uncompressed - members[number].uncompressed))
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = try bytes.withUnsafeMutableBytes { try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[done...])) }
            if got == 0 { break }
            done += got
        }
        return Array(bytes[..<done])
    }
}

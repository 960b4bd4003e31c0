import Basics
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
    static func load(_ path: String) -> GzipIndex? { load(path, checked: nil)?.index }

    /// Reads an index back, and the version of the file it was read from; its checksum is not
    /// read again when the file is still `checked`, the version whose checksum matched last time.
    static func load(_ path: String, checked: FileStamp?) -> (index: GzipIndex, file: FileStamp)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > magic.count + 8, info.st_size < 1 << 30 else { return nil }
        let file = FileStamp(info)
        let size = Int(info.st_size)
        return withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { bytes -> (GzipIndex, FileStamp)? in
            guard (try? readFully(fd, bytes, at: 0)) == size, let start = bytes.baseAddress else { return nil }
            let raw = UnsafeRawBufferPointer(bytes)
            guard memcmp(start, magic, magic.count) == 0 else { return nil }
            if file != checked {
                let stored = raw.loadUnaligned(fromByteOffset: size - 4, as: UInt32.self).littleEndian
                guard stored == UInt32(crc32(0, start.assumingMemoryBound(to: UInt8.self), uInt(size - 4))) else { return nil }
            }
            // Read in place, in one pass: a visitor's query loads the index of every segment it reads.
            let count = Int(raw.loadUnaligned(fromByteOffset: magic.count, as: UInt32.self).littleEndian)
            guard count >= 1, magic.count + 4 + count * 16 == size - 4,
                  let members = GzipMembers(rows: UnsafeRawBufferPointer(rebasing: raw[(magic.count + 4)...]), count: count)
            else { return nil }
            return (GzipIndex(members: members), file)
        }
    }

    /// The number of entries an index file says it has (its members and their end), when its
    /// size agrees.
    static func count<Bytes: IndexBytes>(in file: Bytes) -> Int? {
        guard file.count > magic.count + 8, magic.indices.allSatisfy({ file.load($0, as: UInt8.self) == magic[$0] }) else { return nil }
        let count = Int(file.load(magic.count, as: UInt32.self))
        return count >= 1 && file.count == magic.count + 4 + count * 16 + 4 ? count : nil
    }

    /// The index with only the entries of `members` read (each one's start and end) and the
    /// last; nil when one is out of range or a read failed.
    static func load(_ file: FileWindow, count: Int, entries members: [Int]) -> GzipIndex? {
        guard members.allSatisfy({ (0..<(count - 1)).contains($0) }) else { return nil }
        let wanted = members + members.map { $0 + 1 } + [count - 1]
        let row = { (number: Int) in magic.count + 4 + number * 16 }
        guard let read = GzipMembers(count: count, entries: wanted, {
            (file.load(row($0), as: UInt64.self), file.load(row($0) + 8, as: UInt64.self))
        }), !file.failed else { return nil }
        return GzipIndex(members: read)
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

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How far the experiment tallies have applied the log: the segment stamp and its length, and
/// whether the writer was in the middle of applying a chunk. A small memory-mapped file, so
/// recording it after every chunk costs no system call.
final class TallyPosition {
    static let bytes = 128
    private let base: UnsafeMutableRawPointer
    /// The file was there but held no position (another size, a stamp's length out of range):
    /// read as "never applied", and the tallies' rebuild says why.
    let damaged: Bool

    init?(path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let fresh = info.st_size != Self.bytes
        if fresh, ftruncate(fd, 0) != 0 || ftruncate(fd, off_t(Self.bytes)) != 0 { return nil }
        let pointer = mmap(nil, Self.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let pointer, pointer != MAP_FAILED else { return nil }
        base = pointer
        let badStamp = Int(pointer.load(fromByteOffset: 24, as: UInt8.self)) > 64
        damaged = (fresh && info.st_size != 0) || badStamp
        if badStamp { set(stamp: "", bytes: -1) }
    }

    deinit { munmap(base, Self.bytes) }

    var applying: Bool {
        get { base.load(fromByteOffset: 0, as: UInt64.self) != 0 }
        set { base.storeBytes(of: newValue ? 1 : 0, toByteOffset: 0, as: UInt64.self) }
    }

    var bytes: Int64 { base.load(fromByteOffset: 8, as: Int64.self) }

    var stamp: String {
        let length = min(64, Int(base.load(fromByteOffset: 24, as: UInt8.self)))
        return String(decoding: UnsafeRawBufferPointer(start: base + 25, count: length), as: UTF8.self)
    }

    /// Records the position and clears `applying`, the position first.
    func set(stamp: String, bytes: Int64) {
        // Compared in place: after every chunk, an array of the stamp's bytes and a `String` of the
        // stored one were made only to find them equal.
        var stamp = stamp
        stamp.withUTF8 { utf8 in
            let count = min(64, utf8.count)
            let same = Int(base.load(fromByteOffset: 24, as: UInt8.self)) == count
                && (count == 0 || memcmp(base + 25, utf8.baseAddress!, count) == 0)
            guard !same else { return }
            base.storeBytes(of: UInt8(count), toByteOffset: 24, as: UInt8.self)
            if count > 0 { (base + 25).copyMemory(from: utf8.baseAddress!, byteCount: count) }
        }
        base.storeBytes(of: bytes, toByteOffset: 8, as: Int64.self)
        applying = false
    }

    /// Names that make a tally's file name as they are: the toggles' experiment names.
    static func isFileName(_ name: String) -> Bool {
        let bytes = name.utf8
        return (1...64).contains(bytes.count) && bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }
}

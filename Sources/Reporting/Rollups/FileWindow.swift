import Basics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file read 1 KiB at a time around the offsets asked for. A lookup's binary search touches a
/// few kilobytes of an index of megabytes: reading them is cheaper than mapping the file, which
/// had the kernel map 64 KiB around every page touched and unmap it all again, per segment per
/// query. A read that fails (the file cut short meanwhile) gives zeros and sets `failed`.
final class FileWindow: IndexBytes {
    static let size = 1024
    let count: Int
    /// The version of the file read.
    let stamp: FileStamp
    private(set) var failed = false
    private let descriptor: Int32
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: FileWindow.size, alignment: 8)
    private var start = 0
    private var filled = 0

    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            buffer.deallocate()
            return nil
        }
        count = Int(info.st_size)
        stamp = FileStamp(info)
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
        let width = MemoryLayout<T>.size
        if offset < start || offset + width > start + filled {
            // Centred on the offset: a binary search goes both ways.
            start = max(0, min(offset - Self.size / 2, count - Self.size))
            let got = pread(descriptor, buffer, Self.size, off_t(start))
            filled = max(0, got)
            guard offset >= start, offset + width <= start + filled else {
                failed = true
                return 0
            }
        }
        return T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset - start, as: T.self))
    }
}

import Basics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file read 1 KiB (or `window` bytes) at a time around the offsets asked for. A lookup touches
/// a few kilobytes of an index of megabytes: reading them is cheaper than mapping the file, which
/// had the kernel map 64 KiB around every page touched and unmap it all again, per segment per
/// query. A read that fails (the file cut short meanwhile) gives zeros and sets `failed`.
final class FileWindow: IndexBytes {
    static let size = 1024
    let count: Int
    /// The version of the file read.
    let stamp: FileStamp
    private(set) var failed = false
    /// The reads made so far: what a lookup costs.
    private(set) var reads = 0
    private let descriptor: Int32
    private let window: Int
    private let buffer: UnsafeMutableRawPointer
    private var start = 0
    private var filled = 0

    init?(path: String, window: Int = FileWindow.size) {
        self.window = window
        buffer = UnsafeMutableRawPointer.allocate(byteCount: window, alignment: 8)
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
            read(from: offset - window / 2)
            guard offset >= start, offset + width <= start + filled else {
                failed = true
                return 0
            }
        }
        return T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset - start, as: T.self))
    }

    /// Reads the window from `offset` on: the block of rows a lookup is about to search.
    func prefetch(_ offset: Int) {
        read(from: offset)
    }

    private func read(from offset: Int) {
        start = max(0, min(offset, count - window))
        reads += 1
        filled = max(0, pread(descriptor, buffer, window, off_t(start)))
    }
}

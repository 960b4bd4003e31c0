import Glibc
import Synchronization

/// An open file descriptor and the byte range of it to send. libmicrohttpd takes the descriptor
/// over and sends it with sendfile(2); if the response is never sent, the descriptor is closed here.
public final class OpenFile: Sendable {
    private let descriptor: Atomic<Int32>
    public let offset: UInt64
    public let length: UInt64
    /// The open file's status, taken once it was open: what it says is true of the bytes sent.
    public let info: stat

    /// Opens `path` read-only and sends `length` bytes from `offset` (to the end when nil).
    public init(path: String, offset: UInt64 = 0, length: UInt64? = nil) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, code: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FileError(path: path, code: EISDIR)
        }
        let size = UInt64(info.st_size)
        self.info = info
        self.descriptor = Atomic(fd)
        self.offset = min(offset, size)
        self.length = min(length ?? size, size - self.offset)
    }

    /// Takes over `fd`, open read-only on a regular file, to send it whole.
    init(adopting fd: Int32) {
        var info = stat()
        fstat(fd, &info)
        self.info = info
        descriptor = Atomic(fd)
        offset = 0
        length = UInt64(max(0, info.st_size))
    }

    /// Hands the descriptor over; later calls return -1.
    func take() -> Int32 { descriptor.exchange(-1, ordering: .acquiringAndReleasing) }

    deinit {
        let fd = descriptor.load(ordering: .acquiring)
        if fd >= 0 { close(fd) }
    }

    public struct FileError: Error, CustomStringConvertible {
        public let path: String
        public let code: Int32
        public var description: String { "\(path): \(String(cString: strerror(code)))" }
    }
}

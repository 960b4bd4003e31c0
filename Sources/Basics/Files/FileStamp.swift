import Glibc

/// What tells one version of a file from another without reading it: an edit changes its
/// size or mtime, a replacement (or a link re-pointed) its inode, and a touch back to an old
/// mtime still moves its ctime.
public struct FileStamp: Equatable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int
    public let modified: timespec
    public let changed: timespec
    public let isRegularFile: Bool

    public init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The file `path` names, following symbolic links; nil when there is none.
    public init?(path: String) {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The entity tag for this version: size and modification time in nanoseconds.
    public var etag: String {
        let nanoseconds = UInt64(modified.tv_sec) &* 1_000_000_000 &+ UInt64(modified.tv_nsec)
        return "\"\(String(UInt64(size), radix: 16))-\(String(nanoseconds, radix: 16))\""
    }

    public static func == (lhs: FileStamp, rhs: FileStamp) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
            && lhs.isRegularFile == rhs.isRegularFile
    }
}

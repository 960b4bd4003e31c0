import Glibc

/// Opens a file below a folder and makes sure the file opened is inside it.
///
/// Resolving the path and then opening it leaves a window in which a folder on the way can be
/// swapped for a symbolic link to elsewhere, and the open follows it. Here the file is opened
/// first and the kernel is then asked where the open descriptor really leads
/// (`/proc/self/fd/N`): that cannot change after the open, so no swap can slip past the check.
/// Without `/proc` the path is walked one name at a time with `O_NOFOLLOW`, so no link is
/// followed at all (links inside the folder then go unserved too).
enum ConfinedOpen {
    /// Whether `/proc/self/fd` tells where descriptors lead (a bare chroot may lack it).
    static let hasProc = access("/proc/self/fd", F_OK) == 0

    /// A read-only descriptor of the regular file at `relative` below `root` (an absolute path
    /// with every link resolved), or nil when it is missing, not a regular file, or outside.
    /// Non-blocking, so a named pipe is never waited on. `useProc` false takes the walk even
    /// where `/proc` is mounted (for tests).
    static func open(_ relative: String, below root: String, useProc: Bool = true) -> Int32? {
        let confined = useProc && hasProc ? openThenCheck(relative, below: root) : openWithoutLinks(relative, below: root)
        guard let fd = confined else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        return fd
    }

    private static let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY

    private static func openThenCheck(_ relative: String, below root: String) -> Int32? {
        let fd = Glibc.open(root + "/" + relative, flags)
        guard fd >= 0 else { return nil }
        guard let real = realPath(of: fd), real.hasPrefix(root + "/") else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Each folder opened below the last with `O_NOFOLLOW`: a link anywhere on the way fails the open.
    private static func openWithoutLinks(_ relative: String, below root: String) -> Int32? {
        var current = Glibc.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let names = relative.split(separator: "/")
        for (index, name) in names.enumerated() where current >= 0 {
            let next = openat(current, String(name), O_NOFOLLOW | (index == names.count - 1 ? flags : O_RDONLY | O_DIRECTORY | O_CLOEXEC))
            close(current)
            current = next
        }
        return current >= 0 ? current : nil
    }

    /// Where `fd` leads, as the kernel resolved it when it was opened.
    static func realPath(of fd: Int32) -> String? {
        let link = "/proc/self/fd/\(fd)"
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer -> String? in
            let count = readlink(link, buffer.baseAddress!, Int(PATH_MAX))
            // A full buffer may be a cut path: not served.
            guard count > 0, count < Int(PATH_MAX) else { return nil }
            let path = String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count), as: UTF8.self)
            // A file replaced since the open (an edit saved by rename) reads "<where it was> (deleted)":
            // still the file that was opened there, and whole. Only a file without links is such.
            let marker = " (deleted)"
            var info = stat()
            guard path.hasSuffix(marker), fstat(fd, &info) == 0, info.st_nlink == 0 else { return path }
            return String(path.dropLast(marker.count))
        }
    }
}

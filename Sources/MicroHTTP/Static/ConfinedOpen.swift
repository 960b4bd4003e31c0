import Glibc

/// Opens a file below a folder and makes sure the file opened is inside it.
///
/// Resolving the path and then opening it leaves a window in which a folder on the way can be
/// swapped for a symbolic link to elsewhere, and the open follows it. Here the file is opened
/// first and the kernel is then asked where the open descriptor really leads
/// (`/proc/self/fd/N`): that cannot change after the open, so no swap can slip past the check.
enum ConfinedOpen {
    /// A read-only descriptor of the regular file at `relative` below `root` (an absolute path
    /// with every link resolved), or nil when it is missing, not a regular file, or outside.
    /// Non-blocking, so a named pipe is never waited on.
    static func open(_ relative: String, below root: String) -> Int32? {
        let fd = Glibc.open(root + "/" + relative, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let real = realPath(of: fd), real.hasPrefix(root + "/") else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Where `fd` leads, as the kernel resolved it when it was opened.
    static func realPath(of fd: Int32) -> String? {
        let link = "/proc/self/fd/\(fd)"
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer -> String? in
            let count = readlink(link, buffer.baseAddress!, Int(PATH_MAX))
            // A full buffer may be a cut path; " (deleted)" marks a file removed since: neither is served.
            guard count > 0, count < Int(PATH_MAX) else { return nil }
            let path = String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count), as: UTF8.self)
            return path.hasSuffix(" (deleted)") ? nil : path
        }
    }
}

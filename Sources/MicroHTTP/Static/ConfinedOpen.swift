import Glibc

/// Opens a file below a folder and makes sure the file opened is inside it.
///
/// Resolving the path and then opening it leaves a window in which a folder on the way can be
/// swapped for a symbolic link to elsewhere, and the open follows it. Here the file is opened
/// first and the kernel is then asked where the open descriptor really leads
/// (`/proc/self/fd/N`): that cannot change after the open, so no swap can slip past the check.
/// Without `/proc`, the name is resolved after the open and must lead inside to the same file.
enum ConfinedOpen {
    /// A read-only descriptor of the regular file at `relative` below `root` (an absolute path
    /// with every link resolved), or nil when it is missing, not a regular file, or outside.
    /// Non-blocking, so a named pipe is never waited on.
    /// `useProc` false takes the fallback even where `/proc` is mounted (for tests).
    static func open(_ relative: String, below root: String, useProc: Bool = true) -> Int32? {
        let fd = Glibc.open(root + "/" + relative, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              isInside(fd, info, named: root + "/" + relative, root: root, useProc: useProc) else {
            close(fd)
            return nil
        }
        return fd
    }

    private static func isInside(_ fd: Int32, _ info: stat, named path: String, root: String, useProc: Bool) -> Bool {
        if useProc, let real = realPath(of: fd) { return real.hasPrefix(root + "/") }
        // No /proc (a bare chroot): resolve the name now and require that it leads inside to
        // this very file. A swap back after the open resolves to another file, and is refused.
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        var named = stat()
        guard String(cString: resolved).hasPrefix(root + "/"), stat(resolved, &named) == 0 else { return false }
        return named.st_dev == info.st_dev && named.st_ino == info.st_ino
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

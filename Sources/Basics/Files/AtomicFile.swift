import Glibc

/// Replaces a file whole: the bytes go to a temporary file in the same folder, are synced, and
/// the temporary file is renamed over the target and the folder synced. A reader (or a restart
/// after a crash) finds the old file or the new one, never a part of either.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Writes `bytes` to `path`, keeping the mode of the file it replaces (0644 for a new one).
    public static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let temporary = path + ".tmp-\(getpid())"
        var existing = stat()
        let mode = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        let (_, writeError) = bytes.withUnsafeBytes { FileIO.writeAll(fd, $0) }
        guard writeError == 0 else {
            errno = writeError
            let error = failure("cannot write \(temporary)")
            close(fd)
            unlink(temporary)
            throw error
        }
        guard fsync(fd) == 0 else {
            let error = failure("cannot sync \(temporary)")
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
        // The rename itself is durable only once the folder is synced.
        let directory = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}

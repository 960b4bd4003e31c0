#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A configuration file read whole, up to a limit: opened without blocking (a named pipe would
/// otherwise wait for a writer, holding up reloads and shutdown) and read only if it is a
/// regular file; a larger one is refused rather than read without bound.
public enum BoundedFile {
    public enum Failure: Error, Equatable {
        /// open(2), fstat(2) or read(2) failed with this errno (ENOENT: there is no such file).
        case system(Int32)
        case directory
        /// A pipe, a device, a socket: not a file to read.
        case notRegular
        case tooLarge
    }

    /// The bytes of the regular file at `path`, of at most `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .system(errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(errno) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw .directory }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
        guard Int(info.st_size) <= limit else { throw .tooLarge }
        // One byte more than the size: a file that grew since is read on, up to the limit.
        var data = Data(count: Int(info.st_size) + 1)
        var filled = 0
        while true {
            if filled == data.count {
                guard data.count <= limit else { throw .tooLarge }
                data.count = min(data.count * 2, limit + 1)
            }
            let (count, error) = data.withUnsafeMutableBytes {
                FileIO.readFully(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            guard error == 0 else { throw .system(error) }
            filled += count
            if filled < data.count { break }
        }
        data.count = filled
        return data
    }
}

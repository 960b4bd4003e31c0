import Glibc

/// read(2), pread(2) and write(2) retried when a signal interrupts them, and taken to the end of
/// what was asked: the one place that knows a system call may stop short.
public enum FileIO {
    /// Reads into `buffer` (at `offset` when given, else from the file position) until it is full
    /// or the file ends. Returns the bytes read, and the errno of a failure (0 when none).
    @inlinable
    public static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64? = nil)
        -> (count: Int, error: Int32)
    {
        var done = 0
        while done < buffer.count {
            let result = offset.map { pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t($0) + off_t(done)) }
                ?? read(fd, buffer.baseAddress! + done, buffer.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return (done, errno)
            }
            if result == 0 { break }
            done += result
        }
        return (done, 0)
    }

    /// One read(2) of at most `buffer.count` bytes: what arrived, 0 at the end, -1 with errno set.
    @inlinable
    public static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let result = read(fd, buffer.baseAddress, buffer.count)
            if result < 0, errno == EINTR { continue }
            return result
        }
    }

    /// Writes all of `bytes`, retrying short writes; returns the bytes written and the errno of
    /// a failure (0 when none; EIO for a write that took nothing).
    @inlinable
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> (count: Int, error: Int32) {
        var offset = 0
        while offset < bytes.count {
            let result = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                return (offset, errno)
            }
            if result == 0 { return (offset, EIO) }
            offset += result
        }
        return (offset, 0)
    }
}

import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ReportWriter {
    /// Opens the file if needed, and reopens it if it was removed or replaced (e.g. by log rotation).
    func ensureOpen() -> Bool {
        if fd >= 0 {
            var open = stat()
            var named = stat()
            if fstat(fd, &open) == 0, stat(path, &named) == 0, open.st_ino == named.st_ino, open.st_dev == named.st_dev {
                return true
            }
            logger.notice("report log file was moved or removed; reopening", metadata: ["file": "\(path)"])
            closeFile(sync: true)
        }
        fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            fail("cannot open", errno: errno)
            return false
        }
        var info = stat()
        var last: UInt8 = 0
        fileOffset = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        if fstat(fd, &info) == 0, info.st_size > 0, pread(fd, &last, 1, info.st_size - 1) == 1, last != UInt8(ascii: "\n") {
            needsNewline = true
            logger.warning(
                "report log ends with an incomplete line (torn by a crash?); the next event starts on a new line",
                metadata: ["file": "\(path)"])
        }
        return true
    }

    /// Removes the torn tail of a failed partial write, so the file holds whole lines only.
    func cutFragment(length: Int) {
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size >= length, ftruncate(fd, info.st_size - off_t(length)) == 0 {
            fileOffset = Int(info.st_size) - length
            return
        }
        needsNewline = true
    }

    func closeFile(sync: Bool) {
        guard fd >= 0 else { return }
        if sync && fsync(fd) != 0 {
            logger.error("fsync of report log failed", metadata: ["file": "\(path)", "error": "\(describe(errno))"])
        }
        close(fd)
        fd = -1
    }
}

/// Writes all of `bytes`, retrying short writes and EINTR; returns the bytes written and the errno.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> (count: Int, error: Int32) {
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

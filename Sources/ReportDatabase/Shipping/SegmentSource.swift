import CZlib
import Foundation
import Reporting

/// The local report log as the shipper reads it, straight from disk: a directory of segments
/// `events-<UTC stamp>.jsonl` (closed ones perhaps `.jsonl.gz`), or a single JSON Lines file
/// (then one segment named after the file). Segments sort by name in the order they were written;
/// one is closed once a later one exists, so a listing taken before reading says which are whole.
public struct SegmentSource: Sendable {
    public let path: String
    public let isDirectory: Bool

    public struct Segment: Sendable, Equatable {
        /// The name without `.gz`: the key positions use.
        public let name: String
        /// A later segment existed when listed: nothing more will be written to it.
        public let closed: Bool
        /// In the `damaged/` folder: it cannot be read; the shipper waits at it until released.
        public var setAside: SetAsideSegment? = nil
    }

    /// What a read found.
    enum Read {
        case bytes([UInt8])
        /// Neither the plain file nor its `.gz` exists (deleted, or moved into `damaged/`).
        case gone
        /// The file is there but cannot be read (a corrupt or truncated gzip, an I/O error).
        case unreadable(String)
    }

    public init(path: String) {
        var info = stat()
        self.path = path
        // A path that does not exist yet is taken as the directory the log will create.
        isDirectory = stat(path, &info) == 0 ? (info.st_mode & S_IFMT) == S_IFDIR : !path.hasSuffix(".jsonl")
    }

    static let prefix = "events-"
    static let suffix = ".jsonl"

    /// The segments, oldest first.
    public func segments() -> [Segment] {
        guard isDirectory else {
            let name = (path as NSString).lastPathComponent
            return FileManager.default.fileExists(atPath: path) ? [Segment(name: name, closed: false)] : []
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        var keys = Set<String>()
        for name in names where name.hasPrefix(Self.prefix) {
            if name.hasSuffix(Self.suffix) {
                keys.insert(name)
            } else if name.hasSuffix(Self.suffix + ".gz") {
                keys.insert(String(name.dropLast(3)))
            }
        }
        // Set aside as damaged: listed, so the shipper stops there rather than passing it unseen.
        var setAside: [String: SetAsideSegment] = [:]
        for segment in DamagedSegments.list(path) where !keys.contains(segment.segmentName) {
            setAside[segment.segmentName] = segment
            keys.insert(segment.segmentName)
        }
        let sorted = keys.sorted()
        return sorted.enumerated().map { index, name in
            Segment(name: name, closed: index < sorted.count - 1 || setAside[name] != nil, setAside: setAside[name])
        }
    }

    /// The segment's uncompressed length so far, or nil when it is gone.
    public func plainSize(_ name: String) -> Int64? {
        var info = stat()
        return stat(file(name), &info) == 0 ? Int64(info.st_size) : nil
    }

    func file(_ name: String) -> String { isDirectory ? path + "/" + name : path }

    /// Reads up to `limit` bytes of segment `name` from uncompressed `offset`: the plain file if it
    /// is still there, else its `.gz` (compressed meanwhile). A gzip that ends early or does not
    /// inflate is unreadable, never a short read: that would pass its lines unshipped.
    func read(_ name: String, from offset: Int64, limit: Int) -> Read {
        let plain = file(name)
        let fd = open(plain, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: limit)
            var filled = 0
            while filled < limit {
                let count = buffer.withUnsafeMutableBytes {
                    pread(fd, $0.baseAddress! + filled, limit - filled, off_t(offset) + off_t(filled))
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    return .unreadable("\(name): \(String(cString: strerror(errno)))")
                }
                guard count > 0 else { break }
                filled += count
            }
            buffer.removeSubrange(filled...)
            return .bytes(buffer)
        }
        guard isDirectory, let gz = gzopen(plain + ".gz", "rb") else { return .gone }
        defer { gzclose(gz) }
        gzbuffer(gz, 256 * 1024)
        func failure() -> Read {
            var code: Int32 = 0
            let message = gzerror(gz, &code).map { String(cString: $0) } ?? ""
            return .unreadable("\(name).gz: " + (code == Z_ERRNO ? String(cString: strerror(errno)) : "corrupt or truncated gzip (\(message))"))
        }
        if offset > 0, gzseek(gz, Int(offset), SEEK_SET) < 0 { return failure() }
        var buffer = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let count = buffer.withUnsafeMutableBytes { gzread(gz, $0.baseAddress! + filled, UInt32(limit - filled)) }
            if count < 0 { return failure() }
            if count == 0 { break }
            filled += Int(count)
        }
        // zlib reports a file cut inside a member as Z_BUF_ERROR once the read ends.
        var code: Int32 = 0
        _ = gzerror(gz, &code)
        if code != Z_OK { return failure() }
        buffer.removeSubrange(filled...)
        return .bytes(buffer)
    }
}

import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
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
        /// Whole lines from the offset. `atEnd`: all the segment holds now, followed by
        /// `unterminated` bytes without a newline (a line being written, or torn by a crash).
        case lines([UInt8], atEnd: Bool, unterminated: Int)
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

    /// The segments, oldest first.
    public func segments() -> [Segment] {
        guard isDirectory else {
            let name = PathText.lastComponent(path)
            return FileManager.default.fileExists(atPath: path) ? [Segment(name: name, closed: false)] : []
        }
        var keys = Set(SegmentLines.names(in: path))
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

    func file(_ name: String) -> String { isDirectory ? path + "/" + name : path }

    /// Reads whole lines of segment `name`, about `limit` bytes, from uncompressed `offset`.
    func read(_ name: String, from offset: Int64, limit: Int) -> Read {
        do {
            guard let lines = try SegmentLines(path: file(name), from: offset) else { return .gone }
            var bytes: [UInt8] = []
            while bytes.count < limit {
                guard let chunk = try lines.nextChunk(maxBytes: limit - bytes.count) else {
                    return .lines(bytes, atEnd: true, unterminated: lines.unterminatedBytes)
                }
                bytes += chunk
            }
            return .lines(bytes, atEnd: false, unterminated: 0)
        } catch {
            return .unreadable(error.description)
        }
    }
}

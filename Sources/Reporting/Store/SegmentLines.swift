import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The report log's segments for a reader in another module (the report shipper), so that the
/// segment format has one owner: which segments a directory holds, and one segment's lines read
/// forward from an offset in its uncompressed text: the plain file while it is there, else its
/// `.gz` (compressed meanwhile), entered at the gzip member holding the offset when it has an index.
public final class SegmentLines {
    private let reader: SegmentLineReader
    /// The file's name, for messages: `events-….jsonl` or `events-….jsonl.gz`.
    public let file: String

    /// The data files' names without `.gz` (`events-….jsonl`), oldest first; a segment present
    /// both plain and compressed (being compressed) is listed once.
    public static func names(in directory: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let stamps = Set(files.compactMap { SegmentName.stamp(ofDataFile: $0)?.stamp })
        return stamps.sorted().map { SegmentName.dataFile($0, compressed: false) }
    }

    /// Opens the segment at `path` (its plain name) at `offset`, a line start; nil when neither
    /// it nor its `.gz` is there.
    public init?(path: String, from offset: Int64) throws(ReportStoreError) {
        let name = PathText.lastComponent(path)
        do {
            if let plain = try SegmentLineReader(path: path, compressed: false, from: offset) {
                reader = plain
                file = name
                return
            }
            let directory = PathText.directory(path)
            let index = SegmentName.stamp(ofDataFile: name).flatMap {
                GzipIndex.load(directory + "/" + SegmentName.indexFile($0.stamp))
            }
            guard let compressed = try SegmentLineReader(path: path + ".gz", compressed: true, from: offset, index: index)
            else { return nil }
            reader = compressed
            file = name + ".gz"
        } catch let error as ScanError {
            throw ReportStoreError("\(name): \(error.reason)")
        } catch {
            throw ReportStoreError("\(name): \(error)")
        }
    }

    /// Whole lines, newlines included, about `maxBytes` at most (at most 1 MiB); nil at the end
    /// of what is written. A gzip that ends early or does not inflate throws, never reads short.
    public func nextChunk(maxBytes: Int) throws(ReportStoreError) -> ArraySlice<UInt8>? {
        do {
            return try reader.nextChunk(maxBytes: min(maxBytes, maxLineBytes))
        } catch let error as ScanError {
            throw ReportStoreError("\(file): \(error.damage.map { "corrupt or truncated gzip (\($0))" } ?? error.reason)")
        } catch {
            throw ReportStoreError("\(file): \(error)")
        }
    }

    /// The uncompressed offset just past the last line returned.
    public var position: Int64 { reader.position }

    /// Once `nextChunk` said the end: the bytes after the last newline (a line being written, or
    /// one torn by a crash in a closed segment).
    public var unterminatedBytes: Int { reader.unterminatedBytes }
}

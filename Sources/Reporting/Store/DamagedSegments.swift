import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A segment moved out of the report directory because it cannot be read.
public struct SetAsideSegment: Sendable, Equatable {
    /// The data file's name, as it was in the report directory (`events-….jsonl.gz`).
    public var file: String
    /// Why it was set aside.
    public var reason: String
    /// Its events by its rollup, when that could be read.
    public var events: Int?
    /// An operator released it (`dynamic-home reports check --set-aside`): the shipper may pass it.
    public var released: Bool

    /// The key the shipper's positions use: the name without `.gz`.
    public var segmentName: String { file.hasSuffix(".gz") ? String(file.dropLast(3)) : file }
}

/// The `damaged/` folder of a report directory: segments that cannot be read, each moved there
/// with its rollup, index and filters, and a `.reason` file saying why. The catalogue never reads
/// it; the shipper stops at a segment there until a `.released` file beside it says to pass it.
public enum DamagedSegments {
    public static let folderName = "damaged"
    static let reasonSuffix = ".reason"
    static let releasedSuffix = ".released"

    public static func folder(_ directory: String) -> String { directory + "/" + folderName }

    /// Moves the segment `stamp` and its companion files into `damaged/` and writes why; returns
    /// what was set aside. Throws when the data file cannot be moved.
    @discardableResult
    static func setAside(
        directory: String, stamp: String, compressed: Bool, reason: String, events: Int?, released: Bool = false
    ) throws -> SetAsideSegment {
        let folder = folder(directory)
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw ReportStoreError("cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        let file = SegmentName.dataFile(stamp, compressed: compressed)
        guard rename(directory + "/" + file, folder + "/" + file) == 0 else {
            throw ReportStoreError("cannot move \(file) into \(folder): \(String(cString: strerror(errno)))")
        }
        for companion in [SegmentName.rollupFile(stamp), SegmentName.indexFile(stamp), SegmentName.visitorsFile(stamp),
                          SegmentName.membersFile(stamp), SegmentName.visitorIndexFile(stamp)] {
            _ = rename(directory + "/" + companion, folder + "/" + companion)
        }
        var text = "reason: \(reason.replacing("\n", with: " "))\n"
        if let events { text += "events: \(events)\n" }
        text += "set aside: \(ReportTimestamp.string(from: Date()))\n"
        try? text.write(toFile: folder + "/" + file + reasonSuffix, atomically: true, encoding: .utf8)
        let segment = SetAsideSegment(file: file, reason: reason, events: events, released: false)
        return released ? try release(directory: directory, segment) : segment
    }

    /// Moves a segment's companion file that is damaged (its events are whole, so the segment
    /// stays) into `damaged/`, with a `.reason` file saying why, for whoever looks into it.
    static func setAside(companion file: String, directory: String, reason: String) throws {
        let folder = folder(directory)
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw ReportStoreError("cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        guard rename(directory + "/" + file, folder + "/" + file) == 0 else {
            throw ReportStoreError("cannot move \(file) into \(folder): \(String(cString: strerror(errno)))")
        }
        let text = "reason: \(reason.replacing("\n", with: " "))\nset aside: \(ReportTimestamp.string(from: Date()))\n"
        try? text.write(toFile: folder + "/" + file + reasonSuffix, atomically: true, encoding: .utf8)
    }

    /// Marks a set-aside segment as given up: the shipper skips it (and logs that it did).
    static func release(directory: String, _ segment: SetAsideSegment) throws -> SetAsideSegment {
        let path = folder(directory) + "/" + segment.file + releasedSuffix
        let text = "released: \(ReportTimestamp.string(from: Date()))\n"
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw ReportStoreError("cannot write \(path): \(ErrorText.describe(error))")
        }
        var released = segment
        released.released = true
        return released
    }

    /// The segments in `damaged/`, oldest first; empty when there is no such folder.
    public static func list(_ directory: String) -> [SetAsideSegment] {
        let folder = folder(directory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let present = Set(names)
        return names.filter { SegmentName.stamp(ofDataFile: $0) != nil }.sorted().map { file in
            var segment = SetAsideSegment(file: file, reason: "unknown (no .reason file)", events: nil,
                                          released: present.contains(file + releasedSuffix))
            let text = (try? String(contentsOfFile: folder + "/" + file + reasonSuffix, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                if line.hasPrefix("reason: ") { segment.reason = String(line.dropFirst(8)) }
                if line.hasPrefix("events: ") { segment.events = Int(line.dropFirst(8)) }
            }
            return segment
        }
    }
}

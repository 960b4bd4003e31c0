import Foundation
import Testing
import TestSupport

@testable import Reporting

/// The segments as another module (the report shipper) reads them: listed, and read forward from
/// an offset, plain or compressed meanwhile, never short over a damaged gzip.
@Suite struct SegmentLinesTests {
    static let stamp = "20261124T100000.000Z"
    static let name = "events-\(stamp).jsonl"

    static func lines(_ count: Int) -> [String] {
        (0..<count).map { #"{"event":"launch","timestamp":"2026-11-24T10:00:00.000Z","visitor":"v\#($0)"}"# }
    }

    static func readAll(_ lines: SegmentLines) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try lines.nextChunk(maxBytes: 4096) { bytes += chunk }
        return bytes
    }

    @Test func aSegmentIsListedOnceWhetherPlainCompressedOrBoth() throws {
        let directory = try TemporaryDirectory("segment-lines")
        defer { directory.remove() }
        for file in [Self.name, Self.name + ".gz", "events-20261124T110000.000Z.jsonl.gz", "events-20261124T090000.000Z.jsonl",
                     "events-\(Self.stamp).rollup", "events-notastamp.jsonl", "notes.txt"] {
            try Data().write(to: URL(fileURLWithPath: directory.path(file)))
        }
        #expect(SegmentLines.names(in: directory.path("")) == [
            "events-20261124T090000.000Z.jsonl", Self.name, "events-20261124T110000.000Z.jsonl",
        ])
    }

    @Test func aCompressedSegmentReadsFromAnOffsetAsThePlainOneDid() throws {
        let directory = try TemporaryDirectory("segment-lines")
        defer { directory.remove() }
        let plain = directory.path(Self.name)
        let text = Self.lines(2000).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: plain))
        let offset = Int64(text.utf8.count / 2 - (text.utf8.count / 2) % (text.utf8.count / 2000))
        let expected = Array(text.utf8)[Int(offset)...]
        let fromPlain = try #require(try SegmentLines(path: plain, from: offset))
        #expect(try Self.readAll(fromPlain)[...] == expected)
        // Compressed in small members with its index, as the log's maintenance does; the plain file goes.
        let compressed = try #require(SegmentGzip.compress(plain, to: plain + ".gz", memberBytes: 4096))
        try Data(compressed.index.encode()).write(to: URL(fileURLWithPath: directory.path("events-\(Self.stamp).gzi")))
        try FileManager.default.removeItem(atPath: plain)
        let fromGzip = try #require(try SegmentLines(path: plain, from: offset))
        #expect(fromGzip.file == Self.name + ".gz")
        #expect(try Self.readAll(fromGzip)[...] == expected)
        #expect(fromGzip.position == Int64(text.utf8.count))
    }

    @Test func aTornLastLineIsCountedNotReturned() throws {
        let directory = try TemporaryDirectory("segment-lines")
        defer { directory.remove() }
        let plain = directory.path(Self.name)
        try Data((Self.lines(3).joined(separator: "\n") + "\n" + #"{"event":"lau"#).utf8).write(to: URL(fileURLWithPath: plain))
        let lines = try #require(try SegmentLines(path: plain, from: 0))
        #expect(String(decoding: try Self.readAll(lines), as: UTF8.self) == Self.lines(3).joined(separator: "\n") + "\n")
        #expect(lines.unterminatedBytes == #"{"event":"lau"#.utf8.count)
    }

    @Test func aTruncatedGzipThrowsAndAMissingSegmentIsNil() throws {
        let directory = try TemporaryDirectory("segment-lines")
        defer { directory.remove() }
        let plain = directory.path(Self.name)
        #expect(try SegmentLines(path: plain, from: 0) == nil)
        try Data((Self.lines(500).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: plain))
        _ = try #require(SegmentGzip.compress(plain, to: plain + ".gz"))
        try FileManager.default.removeItem(atPath: plain)
        let whole = try Data(contentsOf: URL(fileURLWithPath: plain + ".gz"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: plain + ".gz"))
        let lines = try #require(try SegmentLines(path: plain, from: 0))
        let error = #expect(throws: ReportStoreError.self) { try Self.readAll(lines) }
        #expect(error?.description.hasPrefix(Self.name + ".gz: corrupt or truncated gzip") == true)
    }
}

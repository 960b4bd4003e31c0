import Foundation
import Testing
import TestSupport

@testable import Reporting

/// A segment's gzip index read back: whole, in one pass, and its checksum read again whenever the
/// file is not the version that matched before.
struct GzipIndexTests {
    static func index(_ members: [(Int64, Int64)]) -> GzipIndex {
        var index = GzipIndex()
        for member in members { index.members.append(member) }
        return index
    }

    static let members: [(Int64, Int64)] = (0...300).map { (Int64($0) * 16_384, Int64($0) * 4_100 + 10) }

    @Test func anIndexReadsBackMemberForMember() throws {
        let directory = try TemporaryDirectory("index")
        defer { directory.remove() }
        let path = directory.path("events.gzi")
        try Data(Self.index(Self.members).encode()).write(to: URL(fileURLWithPath: path))
        let loaded = try #require(GzipIndex.load(path))
        #expect(loaded.members.map { [$0.uncompressed, $0.compressed] } == Self.members.map { [$0.0, $0.1] })
    }

    @Test func anIndexRewrittenSinceItsChecksumMatchedIsCheckedAgain() throws {
        let directory = try TemporaryDirectory("index")
        defer { directory.remove() }
        let path = directory.path("events.gzi")
        var bytes = Self.index(Self.members).encode()
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (_, file) = try #require(GzipIndex.load(path, checked: nil))
        #expect(GzipIndex.load(path, checked: file) != nil)
        bytes[GzipIndex.magic.count + 4 + 16 * 7] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(GzipIndex.load(path, checked: file) == nil)
        #expect(GzipIndex.load(path) == nil)
    }

    @Test func anIndexWithAMemberPastFourGigabytesIsNotRead() throws {
        let directory = try TemporaryDirectory("index")
        defer { directory.remove() }
        let path = directory.path("events.gzi")
        var bytes = Self.index(Self.members).encode()
        let at = GzipIndex.magic.count + 4 + 16 * 300
        withUnsafeBytes(of: UInt64(1 << 32).littleEndian) { bytes.replaceSubrange(at..<(at + 8), with: $0) }
        let checksum = RollupFile.checksum(bytes[..<(bytes.count - 4)])
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange((bytes.count - 4)..., with: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(GzipIndex.load(path) == nil)
    }
}

import Foundation
import Testing
import TestSupport

@testable import Reporting

@Suite struct TallyPositionTests {
    @Test func thePositionReadsBackAsLastSetAndAfterReopening() throws {
        let directory = try TemporaryDirectory("tally-position")
        defer { directory.remove() }
        let path = directory.path("position")
        let position = try #require(TallyPosition(path: path))
        #expect(position.stamp == "")
        let long = String(repeating: "9", count: 70)
        for (stamp, bytes) in [("20261121T000000000Z", 5), ("20261121T000000000Z", 9), ("20261122T101010101Z-1", 12),
                               ("", -1), ("20261121T000000000Z", 3), (long, 4), ("a", 8)] as [(String, Int64)] {
            position.applying = true
            position.set(stamp: stamp, bytes: bytes)
            #expect(position.stamp == String(stamp.prefix(64)))
            #expect(position.bytes == bytes)
            #expect(!position.applying)
        }
        let reopened = try #require(TallyPosition(path: path))
        #expect(reopened.stamp == "a")
        #expect(reopened.bytes == 8)
        #expect(!position.damaged && !reopened.damaged)
    }

    /// Another size, or a stamp's length out of range: read as never applied, and said to be damaged.
    @Test func aFileThatHoldsNoPositionIsDamaged() throws {
        let directory = try TemporaryDirectory("tally-position")
        defer { directory.remove() }
        var wrongStamp = [UInt8](repeating: 0, count: TallyPosition.bytes)
        wrongStamp[24] = 200
        for (name, bytes) in [("short", [UInt8](repeating: 7, count: 5)), ("long", [UInt8](repeating: 7, count: 300)),
                              ("stamp", wrongStamp)] {
            let path = directory.path(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let position = try #require(TallyPosition(path: path))
            #expect(position.damaged, "\(name)")
            #expect(position.stamp == "" && !position.applying, "\(name)")
        }
    }
}

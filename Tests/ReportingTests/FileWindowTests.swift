import Foundation
import Testing
import TestSupport

@testable import Reporting

/// An index file read a window at a time answers what the whole file in memory answers.
struct FileWindowTests {
    @Test func everyOffsetReadsWhatTheBytesInMemoryHoldAcrossWindowsAndBothWays() throws {
        let directory = try TemporaryDirectory("index")
        defer { directory.remove() }
        let path = directory.path("index")
        var random = SplitMix64(state: 7)
        let bytes = (0..<(3 * FileWindow.size + 123)).map { _ in UInt8.random(in: 0...255, using: &random) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let window = try #require(FileWindow(path: path))
        #expect(window.count == bytes.count)
        let offsets = Array(stride(from: 0, to: bytes.count - 8, by: 37)) + stride(from: bytes.count - 8, to: 0, by: -613)
        bytes.withUnsafeBytes { memory in
            for offset in offsets {
                #expect(window.load(offset, as: UInt64.self) == memory.load(offset, as: UInt64.self))
                #expect(window.load(offset, as: UInt16.self) == memory.load(offset, as: UInt16.self))
            }
        }
        #expect(!window.failed)
    }

    @Test func aReadPastTheEndOfAFileCutShortSaysItFailed() throws {
        let directory = try TemporaryDirectory("index")
        defer { directory.remove() }
        let path = directory.path("index")
        try Data(repeating: 1, count: 2 * FileWindow.size).write(to: URL(fileURLWithPath: path))
        let window = try #require(FileWindow(path: path))
        #expect(window.load(10, as: UInt32.self) == 0x0101_0101)
        #expect(truncate(path, 100) == 0)
        #expect(window.load(FileWindow.size + 10, as: UInt32.self) == 0)
        #expect(window.failed)
    }

    @Test func aMissingFileHasNoWindow() throws {
        let directory = try TemporaryDirectory("index")
        defer { directory.remove() }
        #expect(FileWindow(path: directory.path("none")) == nil)
    }
}

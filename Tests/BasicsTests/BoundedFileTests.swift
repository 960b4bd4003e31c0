import Basics
import Foundation
import Glibc
import Testing

/// A configuration file is read whole, up to a limit, and only if it is a regular file.
@Suite struct BoundedFileTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "bounded-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFileUpToTheLimitIsReadWholeAndALargerOneRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = Data((0..<100).map { UInt8($0) })
        try bytes.write(to: URL(fileURLWithPath: folder + "/file"))
        #expect(try BoundedFile.read(folder + "/file", limit: 100) == bytes)
        #expect(throws: BoundedFile.Failure.tooLarge) { try BoundedFile.read(folder + "/file", limit: 99) }
        try Data().write(to: URL(fileURLWithPath: folder + "/empty"))
        #expect(try BoundedFile.read(folder + "/empty", limit: 10).isEmpty)
    }

    @Test func whatIsNotARegularFileSaysWhatItIs() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: BoundedFile.Failure.system(ENOENT)) { try BoundedFile.read(folder + "/missing", limit: 10) }
        #expect(throws: BoundedFile.Failure.directory) { try BoundedFile.read(folder, limit: 10) }
        // A named pipe with no writer: refused at once, not waited on.
        #expect(mkfifo(folder + "/pipe", 0o600) == 0)
        #expect(throws: BoundedFile.Failure.notRegular) { try BoundedFile.read(folder + "/pipe", limit: 10) }
    }
}

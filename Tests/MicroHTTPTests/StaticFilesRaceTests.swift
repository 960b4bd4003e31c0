import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
@testable import MicroHTTP

/// A folder on the way swapped, again and again, for a symbolic link to a folder outside:
/// whatever the timing, nothing from outside is ever served.
@Suite struct StaticFilesRaceTests {
    static let requests = 20_000

    /// The bytes a response would send.
    static func bytes(of response: Response) -> [UInt8] {
        switch response.body {
        case .bytes(let bytes): return bytes
        case .file(let file):
            let fd = file.take()
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: Int(file.length))
            let count = pread(fd, &buffer, buffer.count, off_t(file.offset))
            return Array(buffer.prefix(max(0, count)))
        default: return []
        }
    }

    /// `useProc` false: the check a system without `/proc` gets (`ConfinedOpen`'s fallback).
    @Test(arguments: [(0, true), (256 * 1024, true), (0, false)])
    func aFolderSwappedForALinkOutsideNeverServesTheOutside(heldFileSize: Int, useProc: Bool) throws {
        let base = try TemporaryDirectory("static-race")
        defer { base.remove() }
        let root = base.url.appendingPathComponent("Public")
        let outside = base.url.appendingPathComponent("outside")
        for folder in [root.appendingPathComponent("real"), outside] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try "inside".write(to: root.appendingPathComponent("real/f.txt"), atomically: true, encoding: .utf8)
        try "OUTSIDE".write(to: outside.appendingPathComponent("f.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link"), withDestinationURL: outside)
        let files = try StaticFiles(folder: root.path, maximumHeldFileSize: heldFileSize)

        let stop = Atomic<Bool>(false)
        let rootPath = root.path
        let swapper = Thread {
            // `x` is in turn the real folder and the link, as a deploy script or an attacker might make it.
            while !stop.load(ordering: .relaxed) {
                rename(rootPath + "/real", rootPath + "/x")
                rename(rootPath + "/x", rootPath + "/real")
                rename(rootPath + "/link", rootPath + "/x")
                rename(rootPath + "/x", rootPath + "/link")
            }
        }
        swapper.start()
        var served = 0, leaked = 0
        for _ in 0..<Self.requests {
            if useProc {
                guard let response = try? files.response(for: ["x", "f.txt"], headers: Headers()) else { continue }
                served += 1
                if Self.bytes(of: response) != Array("inside".utf8) { leaked += 1 }
            } else {
                guard let fd = ConfinedOpen.open("x/f.txt", below: files.root, useProc: false) else { continue }
                served += 1
                if Self.bytes(of: Response(body: .file(OpenFile(adopting: fd)))) != Array("inside".utf8) { leaked += 1 }
            }
        }
        stop.store(true, ordering: .relaxed)
        #expect(leaked == 0, "\(leaked) of \(served) answers were not the file inside")
        #expect(served > 0, "the file inside was served at times")
    }
}

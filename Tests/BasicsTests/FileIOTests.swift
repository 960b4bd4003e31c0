import Basics
import Glibc
import Synchronization
import Testing

/// Reads and writes taken to the end of what was asked, through a pipe that hands out less.
@Suite struct FileIOTests {
    @Test func allOfABufferLargerThanThePipeGoesThroughAndComesBack() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        // Larger than a pipe holds (64 KiB): the writes come back short and are taken on.
        let sent = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let wrote = Atomic<Bool>(false)
        let writing = try WorkerThread(name: "pipe-writer") {
            let (count, error) = sent.withUnsafeBytes { FileIO.writeAll(writer, $0) }
            close(writer)
            wrote.store(count == sent.count && error == 0, ordering: .relaxed)
        }
        var received = [UInt8](repeating: 0, count: sent.count + 1)
        let (count, error) = received.withUnsafeMutableBytes { FileIO.readFully(reader, into: $0) }
        writing.join()
        let whole = wrote.load(ordering: .relaxed)
        #expect(whole, "every byte written, through short writes")
        #expect(error == 0)
        #expect(count == sent.count, "read on until the end of the file, not the first short read")
        #expect(Array(received[..<count]) == sent)
    }

    @Test func aFailureSaysItsErrno() {
        var byte: UInt8 = 0
        let (count, error) = withUnsafeMutableBytes(of: &byte) { FileIO.readFully(-1, into: $0) }
        #expect(count == 0 && error == EBADF)
        let written = withUnsafeBytes(of: byte) { FileIO.writeAll(-1, $0) }
        #expect(written.count == 0 && written.error == EBADF)
    }
}

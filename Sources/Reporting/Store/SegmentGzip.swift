import Basics
import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// gzip for closed segments, readable by `zcat`, DuckDB and ClickHouse.
enum SegmentGzip {
    /// zlib's fastest level: JSON Lines still shrink several times, and compressing keeps up with
    /// the writer on one core instead of falling behind it.
    static let level: Int32 = 1

    /// Uncompressed bytes per gzip member. Members start at line starts; the index of where each
    /// begins lets readers start in the middle of a segment (a gzip of several members is still
    /// one gzip to zcat, DuckDB and ClickHouse). Small, so that a visitor's events cost little
    /// more than their own lines to inflate (see `VisitorIndex`): the log's lines repeat their
    /// keys, so the ratio is within 4% of 1 MiB members; the index costs 8 bytes a member in memory.
    static let memberBytes = 1 << 14

    /// Compresses the file at `source` into `target` (fsynced) as line-aligned members; returns the
    /// index and the members' visitor index, or nil (target removed) on error.
    static func compress(_ source: String, to target: String, memberBytes: Int = SegmentGzip.memberBytes)
        -> (index: GzipIndex, visitors: VisitorIndex)?
    {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return nil }
        defer { close(input) }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { return nil }
        var ok = false
        defer {
            close(output)
            if !ok { unlink(target) }
        }
        var stream = z_stream()
        guard dh_deflate_init2(&stream, level, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var index = GzipIndex()
        var visitors = VisitorIndex()
        var pending: [UInt8] = []
        var outBuffer = [UInt8](repeating: 0, count: 256 * 1024)
        var uncompressed: Int64 = 0
        var compressed: Int64 = 0
        var atEnd = false
        var chunk = [UInt8](repeating: 0, count: memberBytes)
        while !atEnd || !pending.isEmpty {
            // Fill up to a member's worth (more for a line longer than that: members hold whole
            // lines, so a member is read alone), then cut after its last newline.
            var want = memberBytes
            while true {
                while !atEnd && pending.count < want {
                    let got = chunk.withUnsafeMutableBytes {
                        FileIO.readSome(input, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min(memberBytes, want - pending.count)]))
                    }
                    if got < 0 { return nil }
                    if got == 0 { atEnd = true } else { pending.append(contentsOf: chunk[..<got]) }
                }
                if atEnd || pending.contains(10) { break }
                want += memberBytes
            }
            var cut = pending.count
            if !atEnd, let newline = pending.lastIndex(of: 10) { cut = newline + 1 }
            guard index.members.append((uncompressed, compressed)) else { return nil }
            pending.withUnsafeBytes { visitors.add(member: index.members.count - 1, lines: $0, count: cut) }
            let wrote = pending.withUnsafeMutableBufferPointer { inBytes in
                outBuffer.withUnsafeMutableBufferPointer { outBytes -> Bool in
                    stream.next_in = inBytes.baseAddress
                    stream.avail_in = uInt(cut)
                    var status = Z_OK
                    repeat {
                        stream.next_out = outBytes.baseAddress
                        stream.avail_out = uInt(outBytes.count)
                        status = deflate(&stream, Z_FINISH)
                        let produced = outBytes.count - Int(stream.avail_out)
                        if produced > 0, FileIO.writeAll(output, UnsafeRawBufferPointer(start: outBytes.baseAddress, count: produced)).error != 0 {
                            return false
                        }
                        compressed += Int64(produced)
                    } while status == Z_OK
                    return status == Z_STREAM_END
                }
            }
            guard wrote, deflateReset(&stream) == Z_OK else { return nil }
            uncompressed += Int64(cut)
            pending.removeFirst(cut)
        }
        guard index.members.append((uncompressed, compressed)), fsync(output) == 0 else { return nil }
        ok = true
        return (index, visitors)
    }
}

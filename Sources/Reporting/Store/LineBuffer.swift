#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a forward line reader holds of its file: lines are taken from `start`; each refill first
/// drops the bytes taken, and the bytes so far of a line longer than `maxLineBytes`, which is
/// then reported once as skipped (a line without bytes).
struct LineBuffer {
    var bytes: [UInt8] = []
    /// Where the next line starts in `bytes`.
    var start = 0
    /// The file offset of `bytes[0]`.
    var offset: Int64
    /// Where the over-long line being skipped started.
    var skippingFrom: Int64?

    init(offset: Int64) { self.offset = offset }

    /// The file offset just past the last line taken.
    var position: Int64 { offset + Int64(start) }

    /// The next complete line, or the marker of a skipped one; nil when more must be read first.
    /// Empty lines are passed over.
    mutating func next() -> ScannedLine? {
        while true {
            let newline = bytes.withUnsafeBufferPointer { all -> Int? in
                guard start < all.count, let found = memchr(all.baseAddress! + start, 10, all.count - start) else { return nil }
                return all.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            guard let newline else { return nil }
            let lineStart = start
            start = newline + 1
            if let from = skippingFrom {
                skippingFrom = nil
                return ScannedLine(offset: from, bytes: nil)
            }
            if newline == lineStart { continue }
            return ScannedLine(offset: offset + Int64(lineStart), bytes: bytes[lineStart..<newline])
        }
    }

    /// Drops what was taken (and an over-long line's bytes), then appends up to `count` bytes
    /// that `read` puts in the space it is given; returns how many it read.
    mutating func refill(count: Int, _ read: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows -> Int {
        if start > 0 {
            bytes.removeFirst(start)
            offset += Int64(start)
            start = 0
        }
        if bytes.count > maxLineBytes {
            if skippingFrom == nil { skippingFrom = offset }
            offset += Int64(bytes.count)
            bytes.removeAll(keepingCapacity: true)
        }
        let old = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        let got = try bytes.withUnsafeMutableBytes { all throws -> Int in
            try read(UnsafeMutableRawBufferPointer(rebasing: all[old...]))
        }
        bytes.removeLast(count - got)
        return got
    }
}

import Basics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A line found by a scanner: its byte offset and bytes (no newline); nil bytes if over-long.
struct ScannedLine {
    var offset: Int64
    var bytes: ArraySlice<UInt8>?
}

/// Lines longer than this are skipped as malformed, which bounds the scanners' memory.
let maxLineBytes = 1 << 20
let scanChunkBytes = 64 * 1024

/// Anything that hands out lines one at a time.
protocol LineSource {
    mutating func next() throws -> ScannedLine?
}

/// Reads `[from, end)` of a file forward in chunks, one line at a time.
struct ForwardLineScanner {
    let fd: Int32
    private(set) var end: Int64
    private var lines: LineBuffer
    private var readOffset: Int64

    init(fd: Int32, from: Int64 = 0, end: Int64) {
        self.fd = fd
        self.end = end
        lines = LineBuffer(offset: from)
        readOffset = from
    }

    mutating func next() throws -> ScannedLine? {
        while true {
            if let line = lines.next() { return line }
            if readOffset >= end {
                guard lines.start < lines.bytes.count || lines.skippingFrom != nil else { return nil }
                let lineStart = lines.start
                lines.start = lines.bytes.count
                if let from = lines.skippingFrom {
                    lines.skippingFrom = nil
                    return ScannedLine(offset: from, bytes: nil)
                }
                return ScannedLine(offset: lines.offset + Int64(lineStart), bytes: lines.bytes[lineStart...])
            }
            let count = Int(min(Int64(scanChunkBytes), end - readOffset))
            let (fd, at) = (fd, readOffset)
            let got = try lines.refill(count: count) { try readFully(fd, $0, at: at) }
            readOffset += Int64(got)
            if got < count { end = readOffset }  // the file shrank under us
        }
    }
}

/// Reads `[0, end)` of a file backwards in chunks, newest line first; of a plain file, or of a
/// compressed segment a gzip member at a time through its index.
struct BackwardLineScanner: LineSource {
    let fd: Int32
    let members: (index: GzipIndex, reader: MemberReader)?
    private var window: [UInt8] = []
    private var windowOffset: Int64
    private var cursor = 0
    private var dropping = false

    init(fd: Int32, end: Int64) {
        self.fd = fd
        members = nil
        windowOffset = end
    }

    init(index: GzipIndex, path: String, end: Int64) throws {
        fd = -1
        members = (index, try MemberReader(index: index, path: path))
        windowOffset = end
    }

    mutating func next() throws -> ScannedLine? {
        while true {
            let newline = window.withUnsafeBufferPointer { all -> Int? in
                var index = cursor - 1
                while index >= 0 && all[index] != 10 { index -= 1 }
                return index >= 0 ? index : nil
            }
            if let newline {
                let lineEnd = cursor
                cursor = newline
                if dropping {
                    dropping = false
                    return ScannedLine(offset: windowOffset + Int64(newline + 1), bytes: nil)
                }
                if lineEnd == newline + 1 { continue }
                return ScannedLine(offset: windowOffset + Int64(newline + 1), bytes: window[(newline + 1)..<lineEnd])
            }
            if windowOffset == 0 {
                guard cursor > 0 || dropping else { return nil }
                defer { cursor = 0; dropping = false }
                return ScannedLine(offset: 0, bytes: dropping ? nil : window[0..<cursor])
            }
            if cursor > maxLineBytes {
                dropping = true
                cursor = 0
            }
            var earlier: [UInt8]
            if let (index, reader) = members {
                let member = index.member(containing: windowOffset - 1)
                earlier = try reader.read(member)
                let start = index.members[member].uncompressed
                earlier.removeLast(max(0, earlier.count - Int(windowOffset - start)))
                windowOffset = start
            } else {
                let count = Int(min(Int64(scanChunkBytes), windowOffset))
                earlier = [UInt8](repeating: 0, count: count)
                let got = try earlier.withUnsafeMutableBytes { bytes throws in
                    try readFully(fd, bytes, at: windowOffset - Int64(count))
                }
                guard got == count else { throw ScanError(code: EIO) }
                windowOffset -= Int64(count)
            }
            earlier.append(contentsOf: window[0..<cursor])
            window = earlier
            cursor = window.count
        }
    }
}

/// Why a segment could not be read: a system error (an errno), or data that does not decode
/// (`damage`: a corrupt or truncated gzip), with the file once the reader knows it.
struct ScanError: Error, CustomStringConvertible {
    let code: Int32
    /// Set when the bytes on disk are damaged (retrying cannot help), nil for a system error.
    var damage: String? = nil
    var file: String? = nil

    init(code: Int32) { self.code = code }

    static func damaged(_ reason: String) -> ScanError {
        var error = ScanError(code: EIO)
        error.damage = reason
        return error
    }

    /// Names `file` unless a file is named already.
    func at(_ file: String) -> ScanError {
        var error = self
        if error.file == nil { error.file = file }
        return error
    }

    /// What went wrong, for a person.
    var reason: String { damage ?? String(cString: strerror(code)) }

    var description: String { file.map { "\($0): \(reason)" } ?? reason }
}

/// Runs `body`, naming `file` in a `ScanError` it throws.
func naming<T>(_ file: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ScanError { throw error.at(file) }
}

/// Reads into `bytes` at `offset` until full or end of file; returns the bytes read.
func readFully(_ fd: Int32, _ bytes: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
    let (done, error) = FileIO.readFully(fd, into: bytes, at: offset)
    if error != 0 { throw ScanError(code: error) }
    return done
}

/// `close(2)`, named so that types with their own `close()` can call it.
func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
